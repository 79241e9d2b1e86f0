/** Import queue -> candidates, one job run per message; see lib/domain/import-run.ts importRun. */
import { importRun } from '../lib/domain/import-run';
import { ImportMessage } from '../lib/imports/queue';
import { queueHandler } from '../lib/lambda';

export const handler = queueHandler(ImportMessage, { inOrder: true, record: (m, _, invocation) => importRun(m.body, invocation) });
