/**
 * One-off data upgrades for a local DATA_DIR made by an older checkout, run by `npm start`
 * before the API listens: candidates written before the change feed (GSI4) existed get
 * GSI4PK/GSI4SK from their own updated_at, so `updated_after` finds them, and placements written
 * before they were listed get theirs from when they were made (GET /placements); candidates written
 * before people existed get their person (backfillPeople). A Scan is fine here:
 * it runs once per start, outside any request, and finds nothing to do once the data is current.
 * A deployed table with older candidates needs the same upgrade once (docs/deploying.md, "Upgrading a table with older candidates").
 */
import { PutCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { newId } from '../lib/ids';
import type { CandidateRecord } from '../lib/store/candidates';
import { ddb, tableName } from '../lib/store/client';
import { claimOwner, emailDigest, personItem } from '../lib/store/people';
import { changeIndexKey, keys, personCandidatesIndexKey, placementChangeIndexKey, TABLE_DEF } from '../lib/store/table';
import { backoff, cancellationReasons, MAX_ATTEMPTS, unlessConditionFails } from '../lib/store/tx';
import { update } from '../lib/store/update';

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
 * new one (with the claim) when it names no one or there is no email. Their guard is put when the
 * requisition has none yet (older data may hold the same person twice on one requisition: both
 * stay, and a merge or an erasure sees both). A joined candidate keeps its own copy of the fields
 * until the person is next edited, which rewrites every copy. Idempotent: only candidates without
 * `person_id` are taken, each conditioned on still having none.
 */
export async function backfillPeople(): Promise<number> {
  let attached = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type = :candidate AND attribute_not_exists(person_id) AND attribute_not_exists(erased_at)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':candidate': 'candidate' },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) if (await attachPerson(item)) attached++;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
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
    await unlessConditionFails(
      ddb.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.personGuard(tenantId, personId, c.req_id), type: 'person_guard', candidate_id: c.id, person_id: personId },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
    return true;
  }
  throw new Error('a candidate could not be given a person: too many concurrent writes');
}
