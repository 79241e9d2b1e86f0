/**
 * Erasing a person's own items: the person item, the claims of their emails, and every item of
 * their partition (older data's guard items, and the notes, activity and files kept there), found by Query, never by
 * Scan. Their candidates are erased one by one by the candidate erasure (lib/store/erasure.ts),
 * which this names them for.
 */
import { BatchWriteCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, queryAll, tableName } from './client';
import { eraseMentionsOfNotes } from './mentions';
import { getPersonItem, guardsOf } from './people';
import { keys, personCandidatesPartition, TABLE_DEF } from './table';
import { backoff, MAX_ATTEMPTS, unlessConditionFails } from './tx';

type Item = Record<string, unknown>;

async function deleteAll(keysToDelete: { PK: unknown; SK: unknown }[]) {
  for (let i = 0; i < keysToDelete.length; i += 25) {
    let requests = keysToDelete.slice(i, i + 25).map((k) => ({ DeleteRequest: { Key: { PK: k.PK, SK: k.SK } } }));
    for (let attempt = 1; requests.length; attempt++) {
      const { UnprocessedItems } = await ddb.send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (UnprocessedItems?.[tableName()] ?? []) as typeof requests;
      if (requests.length && attempt >= MAX_ATTEMPTS) throw new Error('person items not deleted: the table kept refusing');
      if (requests.length) await backoff(attempt);
    }
  }
}

/**
 * Remove a person: first their item and their claims (so no create joins them from then on: a
 * join checks the person exists in its own transaction), then every item of their partition.
 * Answers how many items went, the people whose merge into this one had not moved their files
 * yet (whose bytes are under their own keys still), and the ids of every candidate of theirs (their
 * guards: on the person item, and older data's guard items read consistently after the person
 * went; and the person index, which also finds the candidates of an earlier, interrupted erasure). Nothing to do for a person already removed but the index.
 */
export async function removePerson(
  tenantId: string,
  personId: string,
): Promise<{ items: number; candidateIds: string[]; unmerged: string[] }> {
  let items = 0;
  let guarded: string[] = [];
  const read = await getPersonItem(tenantId, personId);
  if (read) {
    // The item as it went: its guards name every candidate a create joined until then.
    const { Attributes: person = read } = await ddb.send(
      new DeleteCommand({ TableName: tableName(), Key: keys.person(tenantId, personId), ReturnValues: 'ALL_OLD' }),
    );
    guarded = Object.values(guardsOf(person) ?? {});
    items++;
    const claims = Array.isArray(person.claims) ? (person.claims as string[]) : [];
    for (const digest of claims) {
      // A claim a merge moved to another person is theirs now.
      const gone = await unlessConditionFails(
        ddb.send(
          new DeleteCommand({
            TableName: tableName(),
            Key: keys.emailClaim(tenantId, digest),
            ConditionExpression: 'person_id = :pid',
            ExpressionAttributeValues: { ':pid': personId },
          }),
        ),
      );
      if (gone) items++;
    }
  }
  const partition = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.personPartition(tenantId, personId) },
    ConsistentRead: true,
  });
  // A merge into this person that has not moved everything yet left the rest in the merged
  // person's partition (lib/store/person-merge.ts): it goes too.
  const unmoved = partition.filter((i) => i.type === 'person_merge' && i.pending).map((i) => String(i.from_person_id));
  const withFiles: string[] = [];
  for (const fromId of unmoved) {
    const rest = await queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.personPartition(tenantId, fromId) },
      ConsistentRead: true,
    });
    if (rest.some((i) => i.type === 'file')) withFiles.push(fromId);
    partition.push(...rest);
  }
  // The mentions the person's notes put in members' inboxes, outside the partition: the notes name them.
  items += await eraseMentionsOfNotes(tenantId, partition);
  await deleteAll(partition as { PK: unknown; SK: unknown }[]);
  items += partition.length;
  const { byPerson } = TABLE_DEF.indexes;
  const indexed = await queryAll({
    TableName: tableName(),
    IndexName: byPerson.name,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': byPerson.partitionKey },
    ExpressionAttributeValues: { ':pk': personCandidatesPartition(tenantId, personId) },
    ProjectionExpression: 'id',
  });
  const ids = new Set<string>(guarded);
  for (const i of partition as Item[]) if (typeof i.candidate_id === 'string' && i.type === 'person_guard') ids.add(i.candidate_id);
  for (const i of indexed) if (typeof i.id === 'string') ids.add(i.id);
  return { items, candidateIds: [...ids], unmerged: withFiles };
}
