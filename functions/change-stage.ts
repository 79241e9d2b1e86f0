import { changeStage } from '../lib/domain/candidates';
import { apiHandler, route } from '../lib/http';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(
  route('change-stage'),
  async ({ principal, body }) => ({ data: await changeStage(principal.tenantId, body, { type: 'token', id: principal.tokenId }) }),
  { idempotency },
);
