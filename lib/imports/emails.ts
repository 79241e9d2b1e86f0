/**
 * Which candidates of a workspace have an email (case blind). Stand-in until the search index
 * exports the same function: it reads the workspace's candidates, so it is for small workspaces.
 */
import { prefixQuery, queryAll } from '../store/client';
import { keys } from '../store/table';
import { normalizeEmail } from './parse';

export async function candidateIdsByEmail(tenantId: string, email: string): Promise<string[]> {
  const wanted = normalizeEmail(email);
  const items = await queryAll({
    ...prefixQuery(keys.tenantPartition(tenantId), keys.candidatePrefix),
    ProjectionExpression: 'id, email',
    ConsistentRead: true,
  });
  return items.filter((i) => typeof i.email === 'string' && normalizeEmail(i.email) === wanted).map((i) => String(i.id));
}
