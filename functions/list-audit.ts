import { listAudit } from '../lib/domain/audit';
import { apiHandler, page, route } from '../lib/http';

export const handler = apiHandler(route('list-audit'), async ({ principal, query }) => page(await listAudit(principal, query)));
