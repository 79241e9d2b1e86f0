/**
 * Older data's duplicate guards: a person written before their item held `guards` keeps them as
 * items (`GUARD#REQ#<req>`). Until dev/backfill.ts backfillGuards folds them, creates, moves,
 * merges and erasure honour them (and a create or move for such a person writes them as before);
 * after it, the person item holds them all and no guard item is left, with the same refusals.
 */
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillGuards } from '../../dev/backfill';
import { ddb, tableName } from '../../lib/store/client';
import { getPersonItem } from '../../lib/store/people';
import { createRequisition } from '../../lib/store/requisitions';
import { keys } from '../../lib/store/table';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let a: TestTenant;
let token: string;
let reqs: string[];
let n = 0;
const unique = (tag: string) => `${tag}.${++n}.${Date.now()}@guards.example`;

beforeAll(async () => {
  stack = await startStack();
  a = await stack.tenant();
  token = await a.token(['*']);
  reqs = [];
  for (const title of ['Guard One', 'Guard Two', 'Guard Three']) reqs.push((await createRequisition(a.id, { title, status: 'open' })).id);
});
afterAll(() => stack.close());

const create = (body: Record<string, unknown>) => stack.call('POST', '/api/v1/candidates', { token, body });
const patch = (id: string, body: Record<string, unknown>) => stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body });

/** The guard items of a person's partition, as requisition -> candidate. */
async function guardItems(personId: string): Promise<Record<string, string>> {
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :g)',
      ExpressionAttributeValues: { ':pk': keys.personPartition(a.id, personId), ':g': keys.personGuardPrefix },
      ConsistentRead: true,
    }),
  );
  return Object.fromEntries(Items.map((i) => [String(i.SK).slice(keys.personGuardPrefix.length), String(i.candidate_id)]));
}

/** A person made older data: their item without `guards`, each guard an item, as written before. */
async function makeOlder(personId: string) {
  const person = await getPersonItem(a.id, personId);
  await ddb.send(new UpdateCommand({ TableName: tableName(), Key: keys.person(a.id, personId), UpdateExpression: 'REMOVE guards' }));
  for (const [req, candidateId] of Object.entries(person!.guards as Record<string, string>)) {
    await ddb.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.personGuard(a.id, personId, req === 'none' ? undefined : req),
          type: 'person_guard',
          candidate_id: candidateId,
          person_id: personId,
        },
      }),
    );
  }
}

/** A person of older data with one candidate on the first requisition. */
async function olderPerson(name: string) {
  const email = unique(name.split(' ')[0]!.toLowerCase());
  const first = await create({ name, email, req_id: reqs[0] });
  expect(first.status, first.text).toBe(201);
  const personId = first.body.data.person_id as string;
  expect((await getPersonItem(a.id, personId))?.guards).toEqual({ [reqs[0]!]: first.body.data.id });
  await makeOlder(personId);
  return { email, name, personId, first: first.body.data.id as string };
}

describe("older data's guard items", () => {
  it('are honoured and kept by creates and moves until the backfill folds them into the person, with the same refusals after', async () => {
    const p = await olderPerson('Olga Older');
    // The duplicate only the guard item records is refused, naming its candidate.
    const dup = await create({ name: p.name, email: p.email, req_id: reqs[0] });
    expect(dup.status, dup.text).toBe(409);
    expect(dup.body).toMatchObject({ code: 'duplicate_candidate', field: 'req_id', existing_id: p.first });
    // A join on another requisition writes a guard item, as before: the person stays older data.
    const second = await create({ name: p.name, email: p.email, req_id: reqs[1] });
    expect(second.status, second.text).toBe(201);
    const two = second.body.data.id as string;
    expect(await guardItems(p.personId)).toEqual({ [reqs[0]!]: p.first, [reqs[1]!]: two });
    expect((await getPersonItem(a.id, p.personId))?.guards).toBeUndefined();
    // A move onto the first requisition is refused by its item; onto the third, the item moves.
    const onto = await patch(two, { req_id: reqs[0] });
    expect(onto.status, onto.text).toBe(409);
    expect(onto.body).toMatchObject({ code: 'duplicate_candidate', existing_id: p.first });
    // With a change of the person's fields, the person's update carries the check that they are still older data.
    const moved = await patch(two, { req_id: reqs[2], phone: '+1 555 0101' });
    expect(moved.status, moved.text).toBe(200);
    expect(await guardItems(p.personId)).toEqual({ [reqs[0]!]: p.first, [reqs[2]!]: two });

    expect(await backfillGuards()).toBeGreaterThanOrEqual(1);
    expect(await guardItems(p.personId)).toEqual({});
    const person = await getPersonItem(a.id, p.personId);
    expect(person).toMatchObject({ guards: { [reqs[0]!]: p.first, [reqs[2]!]: two }, candidate_count: 2 });
    // Again: nothing left to fold for this person, and the item is as it was.
    await backfillGuards();
    expect(await getPersonItem(a.id, p.personId)).toEqual(person);

    const again = await create({ name: p.name, email: p.email, req_id: reqs[2] });
    expect(again.body).toMatchObject({ code: 'duplicate_candidate', field: 'req_id', existing_id: two });
    const back = await patch(two, { req_id: reqs[0] });
    expect(back.body).toMatchObject({ code: 'duplicate_candidate', existing_id: p.first });
    const third = await create({ name: p.name, email: p.email, req_id: reqs[1] });
    expect(third.status, third.text).toBe(201);
    // The guard of a move off a requisition goes with it: the second requisition is free again.
    const off = await patch(two, { req_id: null, phone: '+1 555 0102' });
    expect(off.status, off.text).toBe(200);
    expect((await getPersonItem(a.id, p.personId))?.guards).toEqual({ [reqs[0]!]: p.first, [reqs[1]!]: third.body.data.id, none: two });
    expect(await guardItems(p.personId)).toEqual({});
  });

  it('a merge of an older person into a current one moves their guard items onto the item, refusing a requisition both are on', async () => {
    const old = await olderPerson('Mora Merged');
    const kept = await create({ name: 'Mora Kept', email: unique('kept'), req_id: reqs[0] });
    expect(kept.status, kept.text).toBe(201);
    const target = kept.body.data.person_id as string;
    const clash = await stack.call('POST', `/api/v1/people/${target}/merge`, { token, body: { from: old.personId } });
    expect(clash.status, clash.text).toBe(409);
    expect(clash.body).toMatchObject({ code: 'duplicate_candidate', existing_id: kept.body.data.id });
    expect((await patch(kept.body.data.id, { req_id: reqs[1] })).status).toBe(200);
    const merged = await stack.call('POST', `/api/v1/people/${target}/merge`, { token, body: { from: old.personId } });
    expect(merged.status, merged.text).toBe(200);
    expect((await getPersonItem(a.id, target))?.guards).toEqual({ [reqs[1]!]: kept.body.data.id, [reqs[0]!]: old.first });
    expect(await guardItems(target)).toEqual({});
    expect(await guardItems(old.personId)).toEqual({});
    const dup = await create({ name: 'Mora Kept', email: old.email, req_id: reqs[0] });
    expect(dup.body).toMatchObject({ code: 'duplicate_candidate', existing_id: old.first });
  });

  it('erasure reaches every candidate of an older person, before the backfill, through their guard items', async () => {
    const p = await olderPerson('Esme Older');
    const second = await create({ name: p.name, email: p.email, req_id: reqs[1] });
    expect(second.status, second.text).toBe(201);
    // Only the guard items name the candidates here: not the person index.
    for (const id of [p.first, second.body.data.id as string]) {
      await ddb.send(
        new UpdateCommand({ TableName: tableName(), Key: keys.candidate(a.id, id), UpdateExpression: 'REMOVE GSI6PK, GSI6SK' }),
      );
    }
    const erased = await stack.call('POST', `/api/v1/candidates/${p.first}/erase`, { token });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.data.person).toMatchObject({ id: p.personId, candidates: 2 });
    const got = await stack.call('GET', `/api/v1/candidates/${second.body.data.id}`, { token });
    expect(got.body.data.name).not.toBe(p.name);
    expect(await getPersonItem(a.id, p.personId)).toBeUndefined();
  });
});
