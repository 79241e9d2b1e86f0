/** The workspace audit log for its admins: one page of records, newest first, under filters. */
import { ValidationError } from '../errors';
import type { AuditQuery, AuditRecord } from '../schemas';
import { auditFromItem, auditPageKey, queryAudit, type AuditFilter } from '../store/audit-query';
import { decodeCursor, encodeCursor } from './cursor';
import type { SessionPrincipal } from './principal';

export interface AuditPage {
  items: AuditRecord[];
  next_cursor: string | null;
}

/** Stored times are toISOString() values: bounds are compared in that form, whatever offset was given. */
const utc = (t: string | undefined) => (t === undefined ? undefined : new Date(t).toISOString());

export async function listAudit(p: SessionPrincipal, q: AuditQuery): Promise<AuditPage> {
  const f: AuditFilter = { actor: q.actor, action: q.action, target: q.target, from: utc(q.from), to: utc(q.to) };
  if (f.from && f.to && f.from > f.to) throw new ValidationError('from must not be after to', { field: 'from' });
  const scope = {
    tenantId: p.tenantId,
    filters: JSON.stringify(['audit', f.actor ?? null, f.action ?? null, f.target ?? null, f.from ?? null, f.to ?? null]),
    key: auditPageKey(p.tenantId, f),
  };
  const startKey = q.cursor === undefined ? undefined : decodeCursor(q.cursor, scope);
  const { items, lastKey } = await queryAudit(p.tenantId, f, q.limit, startKey);
  return { items: items.map(auditFromItem), next_cursor: lastKey ? encodeCursor(scope, lastKey) : null };
}
