/**
 * People: the person item and the email claims (keys in lib/store/table.ts, the rules in
 * lib/domain/people-rules.ts).
 * - The person `T#<t>#PERSON#<pid>` / `PERSON`: their personal fields (a copy of which each of
 *   their candidates keeps), `candidate_count`, `claims`: the digests of the emails that name
 *   them, so erasure finds every claim from the person alone; and `guards`: requisition id (or
 *   `none`) -> the candidate the person is there. Each candidate sets its entry if absent in the
 *   same update that counts it, so the same person twice on one requisition is refused by the
 *   write itself, the refusal (the person as the condition saw it) naming the candidate that
 *   holds it: no extra item, no extra read.
 * - An email's claim `T#<t>#EMAIL#<digest>` / `CLAIM` -> `person_id`: put if absent by the create
 *   that makes the person, so two creates of one new email make one person.
 * - Older data: a person item without `guards` keeps them as separate items
 *   `T#<t>#PERSON#<pid>` / `GUARD#REQ#<req id | none>` -> `candidate_id`, honoured (and written)
 *   as before until dev/backfill.ts backfillGuards folds them into the person. A write decides
 *   which form from the person as last seen, and its condition checks that form still holds.
 */
import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PERSON_FIELDS, type PersonRecord, personFromItem } from '../entities/person';
import type { PersonPart } from '../domain/people-rules';
import { MAX_CANDIDATES_PER_PERSON } from '../model';
import { ddb, tableName } from './client';
import type { CandidateRecord } from './candidates';
import { normalize } from './search';
import { keys, personCandidatesPartition, TABLE_DEF } from './table';

type Item = Record<string, unknown>;

/** A requisition's entry in a person's guards: its id, or `none` for a candidate without one. */
export const guardEntry = (reqId: string | null | undefined) => reqId ?? 'none';

/** A person item's guards (entry -> candidate id); undefined for older data, whose guards are separate items. */
export const guardsOf = (person: Item | undefined): Record<string, string> | undefined =>
  person && typeof person.guards === 'object' && person.guards !== null ? (person.guards as Record<string, string>) : undefined;

/** The form emails are matched in (as the import compares them): case and accent blind. */
export const matchForm = (email: string) => normalize(email).trim();
/** The digest an email's claim is keyed by: no address is written in a key. */
export const emailDigest = (email: string) => createHash('sha256').update(matchForm(email)).digest('hex');

/** The person, or undefined (another workspace's id reads as none). Consistent. */
export async function getPerson(tenantId: string, personId: string): Promise<PersonRecord | undefined> {
  const item = await getPersonItem(tenantId, personId);
  return item && personFromItem(item);
}

export async function getPersonItem(tenantId: string, personId: string): Promise<Item | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.person(tenantId, personId), ConsistentRead: true }));
  return Item;
}

/** The person a candidate is, or undefined (none yet, or no such candidate). Consistent. */
export async function personOfCandidate(tenantId: string, candidateId: string): Promise<string | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.candidate(tenantId, candidateId),
      ConsistentRead: true,
      ProjectionExpression: 'person_id',
    }),
  );
  return typeof Item?.person_id === 'string' ? Item.person_id : undefined;
}

/** The person an email's claim names, or null when it names no one. Consistent. */
export async function claimOwner(tenantId: string, email: string): Promise<string | null> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.emailClaim(tenantId, emailDigest(email)), ConsistentRead: true }),
  );
  return typeof Item?.person_id === 'string' ? Item.person_id : null;
}

/** One of a person's candidates as the person's page lists it. */
export interface PersonCandidate {
  id: string;
  req_id: string | null;
  req_title: string | null;
  stage: string;
  updated_at: string;
}

/**
 * A person's candidates, by id (oldest first): one Query of their partition of the person index
 * (GSI6), whatever their number (a person has at most MAX_CANDIDATES_PER_PERSON). An index is read
 * eventually consistently: a candidate created a moment ago may show a moment later.
 */
export async function queryPersonCandidates(tenantId: string, personId: string): Promise<PersonCandidate[]> {
  const { byPerson } = TABLE_DEF.indexes;
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: byPerson.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': byPerson.partitionKey },
      ExpressionAttributeValues: { ':pk': personCandidatesPartition(tenantId, personId) },
      // Over the cap a Query still ends: a merge may briefly leave more.
      Limit: 4 * MAX_CANDIDATES_PER_PERSON,
    }),
  );
  return Items.filter((i) => i.type === 'candidate').map((i) => ({
    id: String(i.id),
    req_id: typeof i.req_id === 'string' ? i.req_id : null,
    req_title: typeof i.req_title === 'string' ? i.req_title : null,
    stage: String(i.stage),
    updated_at: String(i.updated_at),
  }));
}

/** A new person's item, from the first candidate's fields. */
export function personItem(tenantId: string, personId: string, c: CandidateRecord): Item {
  const fields = Object.fromEntries(PERSON_FIELDS.flatMap((f) => (c[f] === undefined ? [] : [[f, c[f]]])));
  return {
    ...keys.person(tenantId, personId),
    type: 'person',
    tenant_id: tenantId,
    id: personId,
    ...fields,
    candidate_count: 1,
    claims: c.email ? [emailDigest(c.email)] : [],
    guards: { [guardEntry(c.req_id)]: c.id },
    created_at: c.created_at,
    updated_at: c.created_at,
  };
}

/** A condition that the item's person fields are `expect` (absent where undefined), with its placeholders. */
export function fieldsAre(expect: Item) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms = PERSON_FIELDS.map((f, i) => {
    names[`#pf${i}`] = f;
    if (expect[f] === undefined || expect[f] === null) return `attribute_not_exists(#pf${i})`;
    values[`:pf${i}`] = expect[f];
    return `#pf${i} = :pf${i}`;
  });
  return { expression: terms.join(' AND '), names, values };
}

export type PersonCreateParts = 'claim' | 'person' | 'guard';

/** Older data's guard item of a person's candidate, put if absent (a refusal hands back the holder). */
export function guardItemPut(tenantId: string, personId: string, reqId: string | undefined, candidateId: string): Item {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.personGuard(tenantId, personId, reqId), type: 'person_guard', candidate_id: candidateId, person_id: personId },
      ConditionExpression: 'attribute_not_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * The person's parts of a candidate create: a new person puts their item (with the candidate's
 * guard) and their email's claim if absent; a candidate joining a person checks the claim still
 * names them, and counts the candidate on the person and sets its guard if they still have the
 * fields the candidate copied, room for it, and no candidate on its requisition. Each refusal
 * hands back what its condition saw. A person of older data (guards as items) gets the guard item.
 */
export function personCreateParts(tenantId: string, part: PersonPart, c: CandidateRecord): Record<PersonCreateParts, Item | undefined> {
  if (part.kind === 'new') {
    return {
      claim:
        part.claim && c.email
          ? {
              Put: {
                TableName: tableName(),
                Item: { ...keys.emailClaim(tenantId, emailDigest(c.email)), type: 'email_claim', person_id: part.personId },
                ConditionExpression: 'attribute_not_exists(PK)',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            }
          : undefined,
      person: {
        Put: { TableName: tableName(), Item: personItem(tenantId, part.personId, c), ConditionExpression: 'attribute_not_exists(PK)' },
      },
      guard: undefined,
    };
  }
  const same = fieldsAre(part.expect);
  const guards = part.guardItems
    ? { expression: 'attribute_not_exists(#gs)', names: { '#gs': 'guards' }, values: {} }
    : {
        expression: 'attribute_exists(#gs) AND attribute_not_exists(#gs.#g)',
        names: { '#gs': 'guards', '#g': guardEntry(c.req_id) },
        values: { ':cid': c.id },
      };
  return {
    claim: c.email
      ? {
          ConditionCheck: {
            TableName: tableName(),
            Key: keys.emailClaim(tenantId, emailDigest(c.email)),
            ConditionExpression: 'person_id = :pid',
            ExpressionAttributeValues: { ':pid': part.personId },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        }
      : undefined,
    person: {
      Update: {
        TableName: tableName(),
        Key: keys.person(tenantId, part.personId),
        UpdateExpression: `ADD candidate_count :one${part.guardItems ? '' : ' SET #gs.#g = :cid'}`,
        ConditionExpression: `attribute_exists(PK) AND (attribute_not_exists(candidate_count) OR candidate_count < :max) AND ${same.expression} AND ${guards.expression}`,
        ExpressionAttributeNames: { ...same.names, ...guards.names },
        ExpressionAttributeValues: { ...same.values, ...guards.values, ':one': 1, ':max': MAX_CANDIDATES_PER_PERSON },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    guard: part.guardItems ? guardItemPut(tenantId, part.personId, c.req_id, c.id) : undefined,
  };
}
