import { changeStage } from '../lib/domain/candidates';
import { checkOfferGate } from '../lib/domain/offer-gate';
import { apiHandler, data } from '../lib/http';
import * as pipelineApi from '../lib/api/pipeline';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  pipelineApi.changeStage,
  async ({ principal, body }) => data(await changeStage(principal, body, checkOfferGate)),
  { idempotency },
);
