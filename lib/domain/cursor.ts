/**
 * Opaque list cursors, one format for every paged list (candidates, the updated_after feed, a
 * webhook's delivery log): base64url of `{ v, t, f, k }` (tenant, the list and its filters, the
 * page key of the last item) and a SHA-256 check over it. Isolation does not rest on the check,
 * which has no secret: a cursor is accepted only for the tenant and filters it was made for, and
 * its key must have exactly the attributes of that list's Query, the caller's own partition
 * values and the sort-key shape of that list's items. An edited or foreign cursor is a 400; a
 * hand-built one can at most start a page elsewhere in the caller's own list.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../errors';
import { TABLE_DEF, type PageKeyShape } from '../store/table';

/** What a cursor is bound to: a tenant's list under given filters, and the shape of its page key. */
export interface CursorScope {
  tenantId: string;
  /** The list and its filters, as a string that differs whenever the list would (JSON of them). */
  filters: string;
  key: PageKeyShape;
}

const VERSION = 1;
/** Longer than any key attribute of ours; bounds what a hand-built cursor can hand to DynamoDB. */
const MAX_KEY_VALUE = 400;

const check = (payload: string) => createHash('sha256').update(`tp-cursor:${payload}`).digest('base64url').slice(0, 22);

/** The cursor to the page after `lastKey` (an item or LastEvaluatedKey: only the key attributes are kept). */
export function encodeCursor(scope: CursorScope, lastKey: Record<string, unknown>): string {
  const k = Object.fromEntries(scope.key.attrs.map((a) => [a, String(lastKey[a])]));
  const payload = Buffer.from(JSON.stringify({ v: VERSION, t: scope.tenantId, f: scope.filters, k })).toString('base64url');
  return `${payload}.${check(payload)}`;
}

/** The page key inside a cursor, after checking that it was made for this scope and fits its shape. */
export function decodeCursor(cursor: string, scope: CursorScope): Record<string, string> {
  const invalid = (why: string) => new ValidationError(`cursor is not valid: ${why}; start again without it`, { field: 'cursor' });
  const [payload, mac, ...rest] = cursor.split('.');
  if (!payload || !mac || rest.length || mac !== check(payload)) throw invalid('it was altered or truncated');
  let body: { v?: unknown; t?: unknown; f?: unknown; k?: unknown };
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('it was altered or truncated');
  }
  if (body.v !== VERSION || body.t !== scope.tenantId) throw invalid('it belongs to another workspace or version');
  if (body.f !== scope.filters) throw invalid('it was made for another list or other filters');
  const { attrs, partitions, sortKey } = scope.key;
  const key = body.k as Record<string, unknown> | null;
  if (!key || typeof key !== 'object' || Object.keys(key).sort().join() !== [...attrs].sort().join())
    throw invalid('its position is malformed');
  for (const a of attrs)
    if (typeof key[a] !== 'string' || (key[a] as string).length > MAX_KEY_VALUE) throw invalid('its position is malformed');
  for (const [a, v] of Object.entries(partitions)) if (key[a] !== v) throw invalid('it belongs to another list');
  if (!sortKey.test(key[TABLE_DEF.sortKey] as string)) throw invalid('its position is malformed');
  return key as Record<string, string>;
}
