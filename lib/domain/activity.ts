/**
 * The activity feed: written from the audit intents by the table maintenance consumer (beside
 * their expansion into records: lib/domain/stuck-reindex.ts), read a page at a time by
 * GET /api/v1/people/{id}/activity. Expanding an intent twice writes nothing new.
 */
import { auditRecordItems } from '../store/audit';
import { activityPageKey, ACTIVITY_PREFIX, type ActivityPut, candidatesOf, putActivities } from '../store/activity';
import { queryPage, sightFilter } from '../store/notes';
import { keys } from '../store/table';
import { blindFiltered } from './activity-blind';
import { activityOf, withRejection, type AuditRecordView } from './activity-rules';
import { decodeCursor, encodeCursor } from './cursor';
import { maySeeNote, readerOf } from './note-rules';
import { seenPerson } from './person-sight';
import type { Principal } from './principal';
import { seesPersonRecord } from './visibility';

/**
 * Write the feed items an audit intent's records stand for; resolves with how many were new. An
 * import's intent holds a transaction's worth of records: their candidates are read together and
 * their items written a few transactions in all (putActivities), not two calls per record.
 */
export async function expandActivity(intent: Record<string, unknown>): Promise<number> {
  const tenantId = String(intent.tenant_id);
  const records = auditRecordItems(intent);
  // The person the write saw, when it named one: auditIntentItem keeps it beside each record, in order.
  const seenBy = (i: number) => {
    const id = (intent.records as Record<string, unknown>[] | undefined)?.[i]?.person_id;
    return typeof id === 'string' ? id : undefined;
  };
  const plans = records.flatMap((r, i) =>
    activityOf(r as unknown as AuditRecordView).map((plan) => ({
      plan,
      // A rejection's label is read from the candidate; any other item needs no read when the write named the person.
      personId: plan.personId ?? (plan.payload.rejection_reason_id === undefined ? seenBy(i) : undefined),
    })),
  );
  // A candidate's change the write did not name the person of: the candidate's item names them
  // (none for a candidate of before people, or gone).
  const named = plans.flatMap((p) => (p.personId ? [] : [p.plan.candidateId!]));
  const candidates = named.length ? await candidatesOf(tenantId, named) : new Map<string, Record<string, unknown>>();
  const puts = plans.flatMap(({ plan, personId }): ActivityPut[] => {
    if (personId) return [{ personId, plan }];
    const candidate = candidates.get(plan.candidateId!);
    const found = candidate?.person_id;
    return typeof found === 'string' ? [{ personId: found, plan: withRejection(plan, candidate!) }] : [];
  });
  return putActivities(tenantId, puts);
}

export interface ActivityAnswer {
  id: string;
  kind: string;
  at: string;
  actor: { type: string; id: string; name?: string };
  candidate_id?: string;
  [payload: string]: unknown;
}

/**
 * A page of the person's feed, newest first: the person read and ONE Query, side by side. Items
 * the reader may not see (another's private note) are filtered in the Query and checked again
 * here, as are items about a candidate the caller does not see (lib/domain/person-sight.ts) and
 * scorecard items the blind rule hides from them (lib/domain/activity-blind.ts), so a page may
 * hold fewer than `limit` items; `next_cursor` null marks the end.
 */
export async function listActivity(
  p: Principal,
  personId: string,
  q: { limit: number; cursor?: string },
): Promise<{ items: ActivityAnswer[]; next_cursor: string | null }> {
  const reader = readerOf(p);
  const scope = { tenantId: p.tenantId, filters: JSON.stringify(['activity', personId]), key: activityPageKey(p.tenantId, personId) };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  const [sight, page] = await Promise.all([
    seenPerson(p, personId),
    queryPage(keys.personPartition(p.tenantId, personId), ACTIVITY_PREFIX, sightFilter(reader), q.limit, startKey),
  ]);
  const seen = page.items
    .filter((i) => typeof i.visibility !== 'string' || maySeeNote(reader, i as never))
    .filter((i) => seesPersonRecord(sight, i.candidate_id));
  const items = (await blindFiltered(p, seen)).map((i): ActivityAnswer => {
    const payload = (i.payload ?? {}) as Record<string, unknown>;
    return {
      // The payload first: its keys never shadow the item's own.
      ...payload,
      id: String(i.id),
      kind: String(i.kind),
      at: String(i.at),
      actor: i.actor as ActivityAnswer['actor'],
      ...(typeof i.candidate_id === 'string' && { candidate_id: i.candidate_id }),
    };
  });
  return { items, next_cursor: page.lastKey ? encodeCursor(scope, page.lastKey) : null };
}
