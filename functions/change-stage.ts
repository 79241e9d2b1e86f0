import { changeStage } from '../lib/domain/candidates';
import { actorOf } from '../lib/domain/principal';
import { apiHandler, route } from '../lib/http';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  route('change-stage'),
  async ({ principal, body }) => ({ data: await changeStage(principal.tenantId, body, actorOf(principal)) }),
  { idempotency },
);
