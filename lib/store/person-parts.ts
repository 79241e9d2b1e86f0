/**
 * A change of a person's fields as named transaction parts, beside the edited candidate's own
 * (lib/store/candidate-parts.ts writeProfile): the person item, the claim of a changed email (the
 * old one deleted, the new one put unless another person holds it), and every other candidate of
 * the person with its search entries, so that all of them show the change at once.
 */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { GuardMove } from '../domain/candidate-rules';
import type { PersonEdit } from '../domain/people-rules';
import { ddb, tableName } from './client';
import { emailDigest, getPersonItem, guardEntry, guardItemPut, guardsOf } from './people';
import { searchWrites } from './search';
import { changeIndexKey, keys } from './table';
import { backoff, MAX_ATTEMPTS } from './tx';
import { $entries, $remove, type Condition, update } from './update';

type Item = Record<string, unknown>;

/** What a person edit decides on: the person and their other candidates, read consistently. */
export interface PersonRead {
  person: Item | undefined;
  /** The person's other candidates as read (every one their guards name, but the edited one). */
  others: Item[];
}

/**
 * The person and every candidate their guards name but `exceptId`: the person and (older data,
 * until folded into the person) their guard items (one Query) at once, then the candidates.
 */
export async function readPerson(tenantId: string, personId: string, exceptId: string): Promise<PersonRead> {
  const [person, guards] = await Promise.all([
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
  const named = [...Object.values(guardsOf(person) ?? {}), ...(guards.Items ?? []).map((g) => String(g.candidate_id))];
  const ids = [...new Set(named)].filter((id) => id !== exceptId);
  return { person, others: ids.length ? await getCandidates(tenantId, ids) : [] };
}

/** Candidates by id, consistent (a person has at most MAX_CANDIDATES_PER_PERSON: one BatchGetItem). */
export async function getCandidates(tenantId: string, ids: string[]): Promise<Item[]> {
  const out: Item[] = [];
  let wanted: Record<string, unknown>[] = ids.map((id) => keys.candidate(tenantId, id));
  for (let attempt = 1; wanted.length; attempt++) {
    const { Responses, UnprocessedKeys } = await ddb.send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: wanted, ConsistentRead: true } } }),
    );
    out.push(...(Responses?.[tableName()] ?? []));
    wanted = UnprocessedKeys?.[tableName()]?.Keys ?? [];
    if (wanted.length && attempt >= MAX_ATTEMPTS) throw new Error('candidates not read: the table kept deferring them');
    if (wanted.length) await backoff(attempt);
  }
  return out;
}

export type PersonEditParts = 'person' | 'claimOut' | 'claimIn' | 'others' | 'othersSearch';

/** The parts of a person edit, at `at`; with the guard move of the edited candidate when it changes requisition too (one update of the person). */
export function personEditParts(
  tenantId: string,
  edit: PersonEdit,
  at: string,
  guard?: { candidateId: string; move: GuardMove },
): Record<PersonEditParts, Item | Item[] | undefined> {
  const { personId, set, remove, person } = edit;
  const oldDigest = typeof person.email === 'string' ? emailDigest(person.email) : undefined;
  const newEmail = 'email' in set ? String(set.email) : remove.includes('email') ? undefined : (person.email as string | undefined);
  const newDigest = newEmail ? emailDigest(newEmail) : undefined;
  const movesClaim = oldDigest !== newDigest;
  const claims = (Array.isArray(person.claims) ? (person.claims as string[]) : []).filter((d) => d !== oldDigest || !movesClaim);
  if (movesClaim && newDigest && !claims.includes(newDigest)) claims.push(newDigest);
  const changes = { ...set, ...Object.fromEntries(remove.map((f) => [f, $remove()])) };
  const moved = guard && guardMoveOnPerson(guard.candidateId, guard.move);
  return {
    person: {
      Update: {
        TableName: tableName(),
        Key: keys.person(tenantId, personId),
        ...update(
          { ...changes, updated_at: at, ...(movesClaim && { claims }), ...moved?.changes },
          {
            expression: `updated_at = :seen${moved ? ` AND ${moved.condition.expression}` : ''}`,
            names: moved?.condition.names,
            values: { ':seen': person.updated_at, ...moved?.condition.values },
          },
        ),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    claimOut:
      movesClaim && oldDigest
        ? {
            Delete: {
              TableName: tableName(),
              Key: keys.emailClaim(tenantId, oldDigest),
              ConditionExpression: 'person_id = :pid',
              ExpressionAttributeValues: { ':pid': personId },
            },
          }
        : undefined,
    claimIn:
      movesClaim && newDigest
        ? {
            Put: {
              TableName: tableName(),
              Item: { ...keys.emailClaim(tenantId, newDigest), type: 'email_claim', person_id: personId },
              ConditionExpression: 'attribute_not_exists(PK) OR person_id = :pid',
              ExpressionAttributeValues: { ':pid': personId },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          }
        : undefined,
    others: edit.others.map((c) => ({
      Update: {
        TableName: tableName(),
        Key: keys.candidate(tenantId, String(c.id)),
        ...update(
          { ...changes, updated_at: at, ...changeIndexKey(tenantId, at, String(c.id)) },
          { expression: 'updated_at = :seen AND attribute_not_exists(erased_at)', values: { ':seen': c.updated_at } },
        ),
      },
    })),
    othersSearch: edit.others.flatMap((c) => searchWrites(tenantId, afterEdit(c, edit, at), c)),
  };
}

/** A candidate (or the person) as the edit leaves it. */
export function afterEdit(item: Item, edit: Pick<PersonEdit, 'set' | 'remove'>, at: string): Item {
  const after: Item = { ...item, ...edit.set, updated_at: at };
  for (const f of edit.remove) delete after[f];
  return after;
}

/**
 * A guard move on the person item: its guards' entry of the new requisition set if absent, the
 * old one removed when it is the candidate's; for older data (guards as items), only the check
 * that the person is still so.
 */
function guardMoveOnPerson(candidateId: string, g: GuardMove): { changes: Item; condition: Required<Condition> } {
  if (g.guardItems) return { changes: {}, condition: { expression: 'attribute_not_exists(#gs)', names: { '#gs': 'guards' }, values: {} } };
  const from = guardEntry(g.from);
  return {
    changes: { guards: $entries({ [guardEntry(g.to)]: candidateId }, g.dropOld ? [from] : []) },
    condition: {
      expression: `attribute_exists(#gs) AND attribute_not_exists(#gs.#gto)${g.dropOld ? ' AND (attribute_not_exists(#gs.#gfrom) OR #gs.#gfrom = :gid)' : ''}`,
      names: { '#gs': 'guards', '#gto': guardEntry(g.to), ...(g.dropOld && { '#gfrom': from }) },
      values: g.dropOld ? { ':gid': candidateId } : {},
    },
  };
}

/**
 * A candidate of a person moving requisition takes its duplicate guard along (a refusal hands back
 * the person or guard item, naming the candidate the person already is there). On the person
 * item (`guards`; left out when the person edit's update carries it, `onPerson`): one update. For
 * older data, the guard items: the old one deleted (when it is the candidate's), the new one put if
 * absent, and the person checked to be still so.
 */
export function guardMoveParts(tenantId: string, candidateId: string, g: GuardMove, onPerson: boolean) {
  const key = keys.person(tenantId, g.personId);
  const { changes, condition } = guardMoveOnPerson(candidateId, g);
  const guards = onPerson
    ? undefined
    : g.guardItems
      ? {
          ConditionCheck: {
            TableName: tableName(),
            Key: key,
            ConditionExpression: `attribute_exists(PK) AND ${condition.expression}`,
            ExpressionAttributeNames: condition.names,
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        }
      : {
          Update: {
            TableName: tableName(),
            Key: key,
            ...update(changes, { ...condition, expression: `attribute_exists(PK) AND ${condition.expression}` }),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        };
  if (!g.guardItems) return { guards, guardOut: undefined, guardIn: undefined };
  return {
    guards,
    guardOut: g.dropOld
      ? {
          Delete: {
            TableName: tableName(),
            Key: keys.personGuard(tenantId, g.personId, g.from),
            ConditionExpression: 'attribute_not_exists(PK) OR candidate_id = :id',
            ExpressionAttributeValues: { ':id': candidateId },
          },
        }
      : undefined,
    guardIn: guardItemPut(tenantId, g.personId, g.to, candidateId),
  };
}
