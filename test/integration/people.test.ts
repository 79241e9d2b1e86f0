/**
 * People: match or create on every create path (API token, console session), the duplicate rule,
 * the concurrent race of one new email, the person's page, and isolation between workspaces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { queryAll, tableName } from '../../lib/store/client';
import { createRequisition } from '../../lib/store/requisitions';
import { emailDigest } from '../../lib/store/people';
import { keys } from '../../lib/store/table';

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;
let cookieA: string;
let cookieB: string;
let req1: string;
let req2: string;

beforeAll(async () => {
  stack = await startStack();
  [a, b] = [await stack.tenant(), await stack.tenant()];
  tokenA = await a.token(['*']);
  tokenB = await b.token(['*']);
  cookieA = await stack.login((await a.user('recruiter')).email, PASSWORD);
  cookieB = await stack.login((await b.user('admin')).email, PASSWORD);
  req1 = (await createRequisition(a.id, { title: 'Backend Engineer', status: 'open' })).id;
  req2 = (await createRequisition(a.id, { title: 'Data Engineer', status: 'open' })).id;
});
afterAll(() => stack.close());

const create = (body: Record<string, unknown>, token = tokenA) => stack.call('POST', '/api/v1/candidates', { token, body });
const createInConsole = (body: Record<string, unknown>, cookie = cookieA) =>
  stack.call('POST', '/api/candidates', { headers: { Cookie: cookie }, body });
const person = (id: string, token = tokenA) => stack.call('GET', `/api/v1/people/${id}`, { token });
let n = 0;
const unique = (tag: string) => `${tag}.${++n}.${Date.now()}@people.example`;

/** The people of workspace A whose email claim is `email` (the claim item, read directly). */
async function claimsOf(tenantId: string, email: string) {
  const k = keys.emailClaim(tenantId, emailDigest(email));
  return queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': k.PK },
    ConsistentRead: true,
  });
}

describe('match or create', () => {
  it('the same email on two requisitions is one person with two candidates; the page lists both', async () => {
    const email = unique('ada');
    const first = await create({ name: 'Ada Lovelace', email, phone: '+44 20 7946 0001', req_id: req1 });
    expect(first.status, first.text).toBe(201);
    const pid = first.body.data.person_id;
    expect(pid).toMatch(/^[0-9a-f-]{36}$/);
    // Case and accents do not make another person.
    const second = await create({ name: 'Ada Lovelace', email: email.toUpperCase(), req_id: req2 });
    expect(second.status, second.text).toBe(201);
    expect(second.body.data.person_id).toBe(pid);
    // The candidate shows the person's fields: the email and phone as the person holds them.
    expect(second.body.data).toMatchObject({ email, phone: '+44 20 7946 0001' });
    const page = await person(pid);
    expect(page.status, page.text).toBe(200);
    expect(page.body.data).toMatchObject({ id: pid, name: 'Ada Lovelace', email, phone: '+44 20 7946 0001', resume_url: null });
    expect(page.body.data.candidates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: first.body.data.id, req_id: req1, req_title: 'Backend Engineer', stage: 'applied' }),
        expect.objectContaining({ id: second.body.data.id, req_id: req2, req_title: 'Data Engineer', stage: 'applied' }),
      ]),
    );
    expect(page.body.data.candidates).toHaveLength(2);
    // GET /candidates/{id} answers person_id too.
    expect((await stack.call('GET', `/api/v1/candidates/${second.body.data.id}`, { token: tokenA })).body.data.person_id).toBe(pid);
  });

  it("a create matched to a person shows the person's fields, not the ones it sent", async () => {
    const base = unique('jose');
    const first = await create({ name: 'José Núñez', email: base });
    expect(first.status, first.text).toBe(201);
    const second = await create({ name: 'Jose Nunez', email: base.toUpperCase(), req_id: req1 });
    expect(second.status, second.text).toBe(201);
    expect(second.body.data.person_id).toBe(first.body.data.person_id);
    // The person's name wins: the new candidate shows it.
    expect(second.body.data.name).toBe('José Núñez');
  });

  it('the same person again on the same requisition, or again without one, is a 409 duplicate_candidate naming the existing candidate', async () => {
    const email = unique('dup');
    const onReq = await create({ name: 'Dee Dupe', email, req_id: req1 });
    const again = await create({ name: 'Dee Dupe', email, req_id: req1 });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'duplicate_candidate', field: 'req_id', existing_id: onReq.body.data.id });
    const none = await create({ name: 'Dee Dupe', email });
    expect(none.status, none.text).toBe(201);
    const noneAgain = await createInConsole({ name: 'Dee Dupe', email });
    expect(noneAgain.status).toBe(409);
    expect(noneAgain.body).toMatchObject({ code: 'duplicate_candidate', existing_id: none.body.data.id });
    // Nothing was counted for the refused ones.
    const page = await person(onReq.body.data.person_id);
    expect(page.body.data.candidates.map((c: { id: string }) => c.id).sort()).toEqual([onReq.body.data.id, none.body.data.id].sort());
  });

  it('without an email every create is a new person', async () => {
    const one = await create({ name: 'No Mail', req_id: req1 });
    const two = await create({ name: 'No Mail', req_id: req1 });
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(one.body.data.person_id).not.toBe(two.body.data.person_id);
  });

  it('the console creates match as the API does', async () => {
    const email = unique('console');
    const viaApi = await create({ name: 'Cora Console', email, req_id: req1 });
    const viaConsole = await createInConsole({ name: 'Cora Console', email, req_id: req2 });
    expect(viaConsole.status, viaConsole.text).toBe(201);
    expect(viaConsole.body.data.person_id).toBe(viaApi.body.data.person_id);
    const page = await stack.call('GET', `/api/people/${viaApi.body.data.person_id}`, { headers: { Cookie: cookieA } });
    expect(page.status).toBe(200);
    expect(page.body.data.candidates).toHaveLength(2);
  });

  it('another workspace with the same email has its own person', async () => {
    const email = unique('shared');
    const inA = await create({ name: 'Sam Shared', email });
    const inB = await create({ name: 'Sam Shared', email }, tokenB);
    expect(inB.status).toBe(201);
    expect(inB.body.data.person_id).not.toBe(inA.body.data.person_id);
  });
});

describe('the race of one new email', () => {
  it('creates at once on two requisitions and on one make exactly one person, one candidate per requisition', async () => {
    for (let round = 0; round < 6; round++) {
      const email = unique(`race${round}`);
      const bodies = [req1, req2, req1, req2, req1, undefined, undefined].map((req_id) => ({
        name: 'Rae Race',
        email,
        ...(req_id && { req_id }),
      }));
      const results = await Promise.all(bodies.map((body, i) => (i % 2 ? createInConsole(body) : create(body))));
      const created = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status !== 201);
      // One per requisition (and one without): the rest are duplicates naming the winner.
      expect(created.map((r) => r.body.data.req_id ?? null).sort()).toEqual([req1, req2, null].sort());
      for (const r of refused) expect(r.body, r.text).toMatchObject({ code: 'duplicate_candidate' });
      const people = new Set(created.map((r) => r.body.data.person_id));
      expect(people.size).toBe(1);
      const claims = await claimsOf(a.id, email);
      expect(claims).toHaveLength(1);
      expect(claims[0]!.person_id).toBe([...people][0]);
      for (const r of refused) expect(created.map((c) => c.body.data.id)).toContain(r.body.existing_id);
    }
  }, 120_000);
});

describe('isolation', () => {
  it("another workspace's person id is a 404 on the API and in the console; an unknown one too", async () => {
    const mine = await create({ name: 'Iso Late', email: unique('iso') });
    const pid = mine.body.data.person_id;
    const foreign = await person(pid, tokenB);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'person not found', code: 'not_found' });
    expect((await stack.call('GET', `/api/people/${pid}`, { headers: { Cookie: cookieB } })).status).toBe(404);
    expect((await person('0192f1a0-0000-7000-8000-00000000beef')).status).toBe(404);
  });

  it('GET /people/{id} needs candidates:read', async () => {
    const pid = (await create({ name: 'Scope Person' })).body.data.person_id;
    const noRead = await a.token(['pipeline:read']);
    expect((await person(pid, noRead)).status).toBe(403);
    expect((await person(pid, await a.token(['candidates:read']))).status).toBe(200);
  });
});
