import { listAudit } from '../lib/domain/audit';
import { apiHandler, page } from '../lib/http';
import * as auditApi from '../lib/api/audit';

export const handler = apiHandler(auditApi.listAudit, async ({ principal, query }) => page(await listAudit(principal, query)));
