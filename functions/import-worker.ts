/** Import queue -> candidates, one job run per message; see lib/imports/worker.ts importWorker. */
import { importWorker } from '../lib/imports/worker';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(importWorker);
