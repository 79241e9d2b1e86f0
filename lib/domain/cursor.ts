/**
 * Opaque list cursors: base64url of `{ v, t, f, k }` (tenant, filters, the page key of the last
 * item) and a SHA-256 check over it. Isolation does not rest on the check, which has no secret:
 * a cursor is accepted only for the tenant and filters it was made for, and its key must have
 * exactly the attributes of that Query with the caller's own partition values. An edited or
 * foreign cursor is a 400; a hand-built one can at most start a page elsewhere in the caller's
 * own list.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../errors';

const check = (payload: string) => createHash('sha256').update(`tp-cursor:${payload}`).digest('base64url').slice(0, 22);

export function encodeCursor(tenantId: string, filters: string, key: Record<string, string>): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, t: tenantId, f: filters, k: key })).toString('base64url');
  return `${payload}.${check(payload)}`;
}

/**
 * The page key inside a cursor, after checking that it was made for this tenant and these
 * filters, and that it has exactly `attrs` with the `partitions` values given.
 */
export function decodeCursor(
  cursor: string,
  tenantId: string,
  filters: string,
  attrs: readonly string[],
  partitions: Record<string, string>,
): Record<string, string> {
  const invalid = (why: string) => new ValidationError(`cursor is not valid: ${why}; start again without it`, { field: 'cursor' });
  const [payload, mac, ...rest] = cursor.split('.');
  if (!payload || !mac || rest.length || mac !== check(payload)) throw invalid('it was altered or truncated');
  let body: { v?: unknown; t?: unknown; f?: unknown; k?: unknown };
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('it was altered or truncated');
  }
  if (body.v !== 1 || body.t !== tenantId) throw invalid('it belongs to another workspace or version');
  if (body.f !== filters) throw invalid('it was made for other stage, req_id or updated_after filters');
  const key = body.k as Record<string, unknown> | null;
  if (!key || typeof key !== 'object' || Object.keys(key).sort().join() !== [...attrs].sort().join()) throw invalid('its position is malformed');
  for (const a of attrs) if (typeof key[a] !== 'string' || (key[a] as string).length > 400) throw invalid('its position is malformed');
  for (const [a, v] of Object.entries(partitions)) if (key[a] !== v) throw invalid('it belongs to another list');
  if (!/^CAND#[0-9a-f-]{36}$/.test(key.SK as string)) throw invalid('its position is malformed');
  return key as Record<string, string>;
}
