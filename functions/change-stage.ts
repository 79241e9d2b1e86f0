import { changeStage } from '../lib/domain/candidates';
import { apiHandler, data, route } from '../lib/http';
import * as idempotency from '../lib/idempotency';

export const handler = apiHandler(route('change-stage'), async ({ principal, body }) => data(await changeStage(principal, body)), {
  idempotency,
});
