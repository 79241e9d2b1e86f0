/**
 * A merge of two people in the table (the rules: lib/domain/merge-rules.ts).
 * - The merge record `T#<t>#PERSON#<target>` / `MERGE#<from>`: ids only (the from-person, the
 *   moved candidates), `pending` until every item of the from-person's partition is moved. Its
 *   insert is the `person.merged` event; erasing the target finds through it what a merge left
 *   unmoved (lib/store/person-erasure.ts).
 * - The committing transaction (`mergeParts`), then the moves (`moveRest`): each item of the
 *   from-person's partition put under the target and deleted from the from-person in one
 *   transaction, a batch at a time; a moved item carries `moved_from`, so its insert is no event.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { MergeGuard, MergePlan, MergeState } from '../domain/merge-rules';
import { ddb, tableName } from './client';
import { getMention, mentionKey as mentionItemKey } from './mentions';
import { getPersonItem, guardItemPut, guardsOf } from './people';
import { getCandidates } from './person-parts';
import { searchWrites } from './search';
import { changeIndexKey, keys, personCandidatesIndexKey } from './table';
import { MAX_TRANSACT_ACTIONS, writeParts, type TxOutcome } from './tx';
import { $add, $entries, $remove, update } from './update';

type Item = Record<string, unknown>;

export const MERGE_PREFIX = 'MERGE#';
export const mergeKey = (tenantId: string, targetId: string, fromId: string) => ({
  PK: keys.personPartition(tenantId, targetId),
  SK: `${MERGE_PREFIX}${fromId}`,
});

/** The two people, the merge record of the pair, the from-person's guards and their candidates: all consistent. */
export async function readMerge(tenantId: string, targetId: string, fromId: string): Promise<MergeState> {
  const [target, from, record, guards] = await Promise.all([
    getPersonItem(tenantId, targetId),
    getPersonItem(tenantId, fromId),
    ddb
      .send(new GetCommand({ TableName: tableName(), Key: mergeKey(tenantId, targetId, fromId), ConsistentRead: true }))
      .then((r) => r.Item),
    ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :g)',
        ExpressionAttributeValues: { ':pk': keys.personPartition(tenantId, fromId), ':g': keys.personGuardPrefix },
        ConsistentRead: true,
      }),
    ),
  ]);
  // On the person item, and older data's guard items (until folded into it).
  const fromGuards: MergeGuard[] = [
    ...Object.entries(guardsOf(from) ?? {}).map(([entry, candidateId]) => ({ entry, candidateId })),
    ...(guards.Items ?? [])
      .filter((g) => g.type === 'person_guard')
      .map((g) => ({
        entry: String(g.SK).slice(keys.personGuardPrefix.length),
        candidateId: String(g.candidate_id),
        key: { PK: g.PK, SK: g.SK },
      })),
  ];
  const ids = [...new Set(fromGuards.map((g) => g.candidateId))];
  return { target, from, record, fromGuards, fromCandidates: ids.length ? await getCandidates(tenantId, ids) : [] };
}

export type MergeParts = 'guardsIn' | 'target' | 'from' | 'candidates' | 'claims' | 'guardsOut' | 'search' | 'record' | 'audit';

/** The committing transaction of a merge decided at `at`, with `audit`'s actions. */
export async function writeMerge(tenantId: string, plan: MergePlan, at: string, audit: Item[]): Promise<TxOutcome<MergeParts>> {
  const { targetId, fromId } = plan;
  // The target's guards: on their item (each moved one set if absent), or older data's items.
  const onItem = guardsOf(plan.target) !== undefined;
  // One per requisition (a guard item the backfill has not folded yet may repeat one on the item).
  const moving = [...new Map([...plan.guards].reverse().map((g) => [g.entry, g])).values()];
  const entries = moving.map((g, i) => [`#g${i}`, g.entry] as const);
  return writeParts<MergeParts>({
    // First: a refusal here is the same person twice on one requisition, answered as such.
    guardsIn: onItem
      ? undefined
      : moving.map((g) => guardItemPut(tenantId, targetId, g.entry === 'none' ? undefined : g.entry, g.candidateId)),
    target: {
      Update: {
        TableName: tableName(),
        Key: keys.person(tenantId, targetId),
        ...update(
          {
            candidate_count: $add(plan.candidates.length),
            claims: plan.claims,
            updated_at: at,
            ...(onItem && moving.length > 0 && { guards: $entries(Object.fromEntries(moving.map((g) => [g.entry, g.candidateId]))) }),
          },
          {
            expression: [
              'updated_at = :seen',
              onItem ? 'attribute_exists(#gs)' : 'attribute_not_exists(#gs)',
              ...(onItem ? entries.map(([n]) => `attribute_not_exists(#gs.${n})`) : []),
            ].join(' AND '),
            names: { '#gs': 'guards', ...(onItem && Object.fromEntries(entries)) },
            values: { ':seen': plan.target.updated_at },
          },
        ),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    from: {
      Delete: {
        TableName: tableName(),
        Key: keys.person(tenantId, fromId),
        ConditionExpression: 'updated_at = :seen',
        ExpressionAttributeValues: { ':seen': plan.from.updated_at },
      },
    },
    candidates: plan.candidates.map(({ before, after }) => {
      const removed = Object.fromEntries(
        Object.keys(before)
          .filter((k) => !(k in after))
          .map((k) => [k, $remove()]),
      );
      const { PK: _pk, SK: _sk, ...fields } = after;
      const changed = Object.fromEntries(Object.entries(fields).filter(([k, v]) => JSON.stringify(before[k]) !== JSON.stringify(v)));
      return {
        Update: {
          TableName: tableName(),
          Key: keys.candidate(tenantId, String(before.id)),
          ...update(
            {
              ...changed,
              ...removed,
              ...personCandidatesIndexKey(tenantId, targetId, String(before.id)),
              ...changeIndexKey(tenantId, at, String(before.id)),
            },
            {
              expression: 'person_id = :from AND updated_at = :seen AND attribute_not_exists(erased_at)',
              values: { ':from': fromId, ':seen': before.updated_at },
            },
          ),
        },
      };
    }),
    claims: plan.fromClaims.map((digest) => ({
      Update: {
        TableName: tableName(),
        Key: keys.emailClaim(tenantId, digest),
        UpdateExpression: 'SET person_id = :to',
        ConditionExpression: 'person_id = :from',
        ExpressionAttributeValues: { ':to': targetId, ':from': fromId },
      },
    })),
    // Older data's guard items of the from-person (guards on their item go with it).
    guardsOut: plan.guards.flatMap((g) => (g.key ? [{ Delete: { TableName: tableName(), Key: g.key } }] : [])),
    search: plan.candidates.flatMap(({ before, after }) => searchWrites(tenantId, after, before)),
    record: {
      Put: {
        TableName: tableName(),
        Item: {
          ...mergeKey(tenantId, targetId, fromId),
          type: 'person_merge',
          tenant_id: tenantId,
          person_id: targetId,
          from_person_id: fromId,
          candidate_ids: plan.candidates.map((c) => String(c.before.id)),
          at,
          pending: true,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    audit,
  });
}

/** The from-person's file items whose bytes the caller moves before the records (the object keys name the person). */
export type MoveObject = (file: Item) => Promise<void>;

/**
 * Move every item left in the from-person's partition to the target, a transaction at a time
 * (each item put under the target and deleted from the from-person together, with the inbox
 * mentions of a moved note pointed at the target), then mark the merge record done. Idempotent:
 * a retry reads what is left and moves it. Answers how many items moved.
 */
export async function moveRest(tenantId: string, targetId: string, fromId: string, moveObject: MoveObject): Promise<number> {
  const fromPk = keys.personPartition(tenantId, fromId);
  const toPk = keys.personPartition(tenantId, targetId);
  let moved = 0;
  for (let round = 0; ; round++) {
    if (round > 1_000) throw new Error('the merged person kept gaining items while they were moved');
    const { Items = [] } = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': fromPk },
        ConsistentRead: true,
        Limit: 40,
      }),
    );
    if (!Items.length) break;
    const actions: Item[] = [];
    let batch = 0;
    for (const item of Items) {
      const extra = await moveActions(tenantId, targetId, item, moveObject);
      if (actions.length && actions.length + extra.length + 2 > MAX_TRANSACT_ACTIONS) break;
      actions.push(...extra);
      const copy: Item = { ...item, PK: toPk, moved_from: item.moved_from ?? fromId };
      if (typeof item.person_id === 'string') copy.person_id = targetId;
      // A file's bytes guard: the target keeps their own file of the same bytes, if they have one.
      const keep = item.type !== 'file_guard' || !(await exists({ PK: toPk, SK: item.SK }));
      if (keep) actions.push({ Put: { TableName: tableName(), Item: copy } });
      actions.push({ Delete: { TableName: tableName(), Key: { PK: item.PK, SK: item.SK } } });
      batch++;
    }
    // Refused (a mention read meanwhile changed its key) or lost: this batch is read and written again.
    if ('written' in (await writeParts({ move: actions }))) moved += batch;
  }
  await writeParts({
    record: {
      Update: {
        TableName: tableName(),
        Key: mergeKey(tenantId, targetId, fromId),
        UpdateExpression: 'REMOVE pending',
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
  });
  return moved;
}

async function exists(key: Item): Promise<boolean> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true, ProjectionExpression: 'PK' }));
  return Item !== undefined;
}

/** What moves with an item: a file's bytes (before its record), a note's inbox mentions (in its transaction). */
async function moveActions(tenantId: string, targetId: string, item: Item, moveObject: MoveObject): Promise<Item[]> {
  if (item.type === 'file') await moveObject(item);
  if (item.type !== 'note' || !Array.isArray(item.mentions)) return [];
  const found = await Promise.all(
    (item.mentions as { user_id: string; mention_id: string }[]).map((m) => getMention(tenantId, m.user_id, m.mention_id)),
  );
  return found.flatMap((m) =>
    m
      ? [
          {
            Update: {
              TableName: tableName(),
              Key: mentionItemKey(tenantId, m.user_id, m.id, m.read_at !== undefined),
              UpdateExpression: 'SET person_id = :to',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':to': targetId },
            },
          },
        ]
      : [],
  );
}
