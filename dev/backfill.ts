/**
 * One-off data upgrades for a local DATA_DIR made by an older checkout, run by `npm start`
 * before the API listens: candidates written before the change feed (GSI4) existed get
 * GSI4PK/GSI4SK from their own updated_at, so `updated_after` finds them, and placements written
 * before they were listed get theirs from when they were made (GET /placements); candidates written
 * before people existed get their person (backfillPeople). A Scan is fine here:
 * it runs once per start, outside any request, and finds nothing to do once the data is current.
 * A deployed table with older candidates needs the same upgrade once (docs/deploying.md, "Upgrading a table with older candidates").
 */
import { PutCommand, QueryCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { newId } from '../lib/ids';
import type { CandidateRecord } from '../lib/store/candidates';
import { ddb, tableName } from '../lib/store/client';
import { claimOwner, emailDigest, getPersonItem, guardEntry, guardsOf, personItem } from '../lib/store/people';
import { changeIndexKey, keys, personCandidatesIndexKey, placementChangeIndexKey, TABLE_DEF } from '../lib/store/table';
import { backoff, cancellationReasons, MAX_ATTEMPTS, unlessConditionFails } from '../lib/store/tx';
import { $entries, update } from '../lib/store/update';
import { itemsOfType } from './scan';

export async function backfillChangeIndex(): Promise<number> {
  const { byChange } = TABLE_DEF.indexes;
  let updated = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '(#type = :candidate OR #type = :placement) AND attribute_not_exists(#cpk)',
        ExpressionAttributeNames: { '#type': 'type', '#cpk': byChange.partitionKey },
        ExpressionAttributeValues: { ':candidate': 'candidate', ':placement': 'placement' },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const placement = item.type === 'placement';
      // A placement from before it had updated_at last changed when it was made.
      const at = (placement ? (item.updated_at ?? item.created_at) : item.updated_at) as string;
      const key = (placement ? placementChangeIndexKey : changeIndexKey)(item.tenant_id as string, at, item.id as string);
      try {
        await ddb.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: `SET #cpk = :cpk, #csk = :csk${placement ? ', updated_at = :seen' : ''}`,
            // Only if nothing changed it since the Scan: a write in between set the keys itself.
            ConditionExpression: `${placement ? '(attribute_not_exists(updated_at) OR updated_at = :seen)' : 'updated_at = :seen'} AND attribute_not_exists(#cpk)`,
            ExpressionAttributeNames: { '#cpk': byChange.partitionKey, '#csk': byChange.sortKey },
            ExpressionAttributeValues: { ':cpk': key[byChange.partitionKey], ':csk': key[byChange.sortKey], ':seen': at },
          }),
        );
        updated++;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
      }
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return updated;
}

/**
 * Candidates written before people existed get a person: the one their email's claim names, or a
 * new one (with the claim) when it names no one or there is no email. Their guard is set when the
 * requisition has none yet (older data may hold the same person twice on one requisition: both
 * stay, and a merge or an erasure sees both): on the person item, or as a guard item for a person
 * whose guards are still items (backfillGuards folds those; run it after this one). A joined candidate keeps its own copy of the fields
 * until the person is next edited, which rewrites every copy. Idempotent: only candidates without
 * `person_id` are taken, each conditioned on still having none.
 */
export async function backfillPeople(): Promise<number> {
  let attached = 0;
  for await (const item of itemsOfType('candidate', { filter: 'attribute_not_exists(person_id) AND attribute_not_exists(erased_at)' }))
    if (await attachPerson(item)) attached++;
  return attached;
}

async function attachPerson(item: Record<string, unknown>): Promise<boolean> {
  const tenantId = String(item.tenant_id);
  const c = item as unknown as CandidateRecord;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const owner = c.email ? await claimOwner(tenantId, c.email) : null;
    const personId = owner ?? newId();
    const candidate = {
      Update: {
        TableName: tableName(),
        Key: keys.candidate(tenantId, c.id),
        ...update(
          { person_id: personId, ...personCandidatesIndexKey(tenantId, personId, c.id) },
          { expression: 'attribute_exists(PK) AND attribute_not_exists(person_id) AND attribute_not_exists(erased_at)' },
        ),
      },
    };
    const parts = owner
      ? [
          candidate,
          {
            Update: {
              TableName: tableName(),
              Key: keys.person(tenantId, personId),
              UpdateExpression: 'ADD candidate_count :one',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ]
      : [
          candidate,
          { Put: { TableName: tableName(), Item: personItem(tenantId, personId, c), ConditionExpression: 'attribute_not_exists(PK)' } },
          ...(c.email
            ? [
                {
                  Put: {
                    TableName: tableName(),
                    Item: { ...keys.emailClaim(tenantId, emailDigest(c.email)), type: 'email_claim', person_id: personId },
                    ConditionExpression: 'attribute_not_exists(PK)',
                  },
                },
              ]
            : []),
        ];
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: parts as never }));
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      // Taken meanwhile (a write gave it a person, or it was erased): nothing to do.
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return false;
      // The claim was put, or the person went, since it was read: decide again.
      await backoff(attempt);
      continue;
    }
    // A new person's item holds the guard already.
    if (owner) await guardJoined(tenantId, personId, c);
    return true;
  }
  throw new Error('a candidate could not be given a person: too many concurrent writes');
}

/** A candidate's guard on the person it joined, if the requisition has none: on their item, or (guards still items) as an item. */
async function guardJoined(tenantId: string, personId: string, c: CandidateRecord) {
  const onItem = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.person(tenantId, personId),
        UpdateExpression: 'SET #gs.#g = :cid',
        ConditionExpression: 'attribute_exists(#gs) AND attribute_not_exists(#gs.#g)',
        ExpressionAttributeNames: { '#gs': 'guards', '#g': guardEntry(c.req_id) },
        ExpressionAttributeValues: { ':cid': c.id },
      }),
    ),
  );
  if (onItem || guardsOf(await getPersonItem(tenantId, personId))) return;
  await unlessConditionFails(
    ddb.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.personGuard(tenantId, personId, c.req_id), type: 'person_guard', candidate_id: c.id, person_id: personId },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
  );
}

/**
 * Guard items (`GUARD#REQ#<req>` in a person's partition, written before the person item held
 * their guards) folded into the person item's `guards` and deleted, a person per transaction.
 * Until it has run, the code honours (and, for such a person, still writes) the items: a person
 * item without `guards` is older data. A person folded meanwhile keeps their entries (an item of
 * a requisition they hold already goes); the items of a person who is gone are left to the erasure
 * or merge that removes them. Idempotent: it finds
 * nothing to do once the data is current. Answers how many people it folded.
 */
export async function backfillGuards(): Promise<number> {
  const people = new Map<string, { tenantId: string; personId: string }>();
  for await (const g of itemsOfType('person_guard', { projection: 'PK, person_id' })) {
    // The PK is `T#<tenant>#PERSON#<person>`.
    const [, tenantId] = String(g.PK).split('#');
    people.set(String(g.PK), { tenantId: tenantId!, personId: String(g.person_id) });
  }
  let folded = 0;
  for (const { tenantId, personId } of people.values()) if (await foldGuards(tenantId, personId)) folded++;
  return folded;
}

async function foldGuards(tenantId: string, personId: string): Promise<boolean> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const [person, { Items = [] }] = await Promise.all([
      getPersonItem(tenantId, personId),
      ddb.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :g)',
          ExpressionAttributeValues: { ':pk': keys.personPartition(tenantId, personId), ':g': keys.personGuardPrefix },
          ConsistentRead: true,
        }),
      ),
    ]);
    const items = Items.filter((g) => g.type === 'person_guard');
    // A person gone: an erasure or a merge under way deletes their items (and may still read them).
    if (!items.length || !person) return false;
    const held = guardsOf(person);
    const fold: Record<string, string> = {};
    for (const g of items) {
      const entry = String(g.SK).slice(keys.personGuardPrefix.length);
      if (!held?.[entry]) fold[entry] = String(g.candidate_id);
    }
    const deletes = items.map((g) => ({
      Delete: {
        TableName: tableName(),
        Key: { PK: g.PK, SK: g.SK },
        ConditionExpression: 'candidate_id = :cid',
        ExpressionAttributeValues: { ':cid': g.candidate_id },
      },
    }));
    // The person's entries set in the same transaction as their items go, so no write sees neither.
    const entries = Object.keys(fold).map((entry, i) => [`#g${i}`, entry] as const);
    const onPerson = held
      ? entries.length
        ? [
            {
              Update: {
                TableName: tableName(),
                Key: keys.person(tenantId, personId),
                ...update(
                  { guards: $entries(fold) },
                  {
                    expression: ['attribute_exists(#gs)', ...entries.map(([n]) => `attribute_not_exists(#gs.${n})`)].join(' AND '),
                    names: { '#gs': 'guards', ...Object.fromEntries(entries) },
                  },
                ),
              },
            },
          ]
        : []
      : [
          {
            Update: {
              TableName: tableName(),
              Key: keys.person(tenantId, personId),
              UpdateExpression: 'SET #gs = :guards',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#gs)',
              ExpressionAttributeNames: { '#gs': 'guards' },
              ExpressionAttributeValues: { ':guards': fold },
            },
          },
        ];
    const actions = [...onPerson, ...deletes];
    if (actions.length > 100) throw new Error(`person ${personId} has more guard items than one transaction folds`);
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: actions as never }));
      return true;
    } catch (err) {
      if (!cancellationReasons(err)) throw err;
      // Changed since it was read (a create, a move, a merge, an erasure): read again.
      await backoff(attempt);
    }
  }
  throw new Error(`the guards of person ${personId} could not be folded: too many concurrent writes`);
}
