/**
 * Editing a person through any of their candidates: the person and every candidate of theirs
 * change in one transaction (their answers, search entries and the person's page), a changed
 * email moves its claim, and an email another person holds is refused with email_taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { insertCandidate } from '../../lib/domain/candidate-writes';
import { newId, nowIso } from '../../lib/ids';
import { createRequisition } from '../../lib/store/requisitions';
import { backfillPeople } from '../../dev/backfill';

let stack: Stack;
let a: TestTenant;
let token: string;
let cookie: string;
let req1: string;
let req2: string;
let n = 0;
const unique = (tag: string) => `${tag}.${++n}.${Date.now()}@edits.example`;

beforeAll(async () => {
  stack = await startStack();
  a = await stack.tenant();
  token = await a.token(['*']);
  cookie = await stack.login((await a.user('recruiter')).email, PASSWORD);
  req1 = (await createRequisition(a.id, { title: 'Edit One', status: 'open' })).id;
  req2 = (await createRequisition(a.id, { title: 'Edit Two', status: 'open' })).id;
});
afterAll(() => stack.close());

const create = (body: Record<string, unknown>) => stack.call('POST', '/api/v1/candidates', { token, body });
const patch = (id: string, body: Record<string, unknown>) => stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body });
const get = async (id: string) => (await stack.call('GET', `/api/v1/candidates/${id}`, { token })).body.data;

async function personWithTwo(name: string) {
  const email = unique(name.split(' ')[0]!.toLowerCase());
  const one = await create({ name, email, req_id: req1 });
  const two = await create({ name, email, req_id: req2 });
  expect(one.status, one.text).toBe(201);
  expect(two.status, two.text).toBe(201);
  return { email, ids: [one.body.data.id as string, two.body.data.id as string], personId: one.body.data.person_id as string };
}

describe('editing a person', () => {
  it("a PATCH of one candidate's name and phone changes the person and every candidate of theirs, search included", async () => {
    const p = await personWithTwo('Edna Edit');
    const res = await patch(p.ids[0]!, { name: 'Edna Quillfeather', phone: '+1 555 0142' });
    expect(res.status, res.text).toBe(200);
    for (const id of p.ids) expect(await get(id)).toMatchObject({ name: 'Edna Quillfeather', phone: '+1 555 0142', email: p.email });
    const page = await stack.call('GET', `/api/v1/people/${p.personId}`, { token });
    expect(page.body.data).toMatchObject({ name: 'Edna Quillfeather', phone: '+1 555 0142' });
    const found = await stack.call('GET', '/api/v1/candidates?q=quillfeather', { token });
    expect(found.body.data.map((c: { id: string }) => c.id).sort()).toEqual([...p.ids].sort());
    expect((await stack.call('GET', '/api/v1/candidates?q=edna%20edit', { token })).body.data).toEqual([]);
    // Clearing a field clears it everywhere (the console twin edits the same way).
    const cleared = await stack.call('PATCH', `/api/candidates/${p.ids[1]}`, { headers: { Cookie: cookie }, body: { phone: null } });
    expect(cleared.status, cleared.text).toBe(200);
    for (const id of p.ids) expect((await get(id)).phone).toBeNull();
  });

  it('a changed email moves its claim: the old email makes a new person, the new one joins them', async () => {
    const p = await personWithTwo('Milo Mover');
    const moved = unique('milo.new');
    const res = await patch(p.ids[1]!, { email: moved });
    expect(res.status, res.text).toBe(200);
    for (const id of p.ids) expect((await get(id)).email).toBe(moved);
    const joined = await create({ name: 'Milo Mover', email: moved.toUpperCase() });
    expect(joined.body.data.person_id).toBe(p.personId);
    const fresh = await create({ name: 'Milo Mover', email: p.email, req_id: req1 });
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.body.data.person_id).not.toBe(p.personId);
  });

  it('an email another person holds is a 409 email_taken naming that person, and nothing changes', async () => {
    const p = await personWithTwo('Tara Taken');
    const other = await create({ name: 'Owen Owner', email: unique('owen') });
    const res = await patch(p.ids[0]!, { email: other.body.data.email.toUpperCase(), name: 'Tara Changed' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'email_taken', field: 'email', existing_id: other.body.data.person_id });
    for (const id of p.ids) expect(await get(id)).toMatchObject({ name: 'Tara Taken', email: p.email });
  });

  it('a change of case of the email keeps the claim, and a PATCH of req_id alone touches no other candidate', async () => {
    const p = await personWithTwo('Cass Case');
    const res = await patch(p.ids[0]!, { email: p.email.toUpperCase() });
    expect(res.status, res.text).toBe(200);
    expect((await get(p.ids[1]!)).email).toBe(p.email.toUpperCase());
    const before = await get(p.ids[1]!);
    expect((await patch(p.ids[0]!, { req_id: null })).status).toBe(200);
    expect((await create({ name: 'Cass Case', email: p.email, req_id: req1 })).body.data.person_id).toBe(p.personId);
    expect((await get(p.ids[1]!)).updated_at).toBe(before.updated_at);
  });

  it('moving a candidate to a requisition the person is already on is a duplicate; a move frees the old one', async () => {
    const p = await personWithTwo('Rhea Route');
    const clash = await patch(p.ids[0]!, { req_id: req2 });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'duplicate_candidate', field: 'req_id', existing_id: p.ids[1] });
    expect((await get(p.ids[0]!)).req_id).toBe(req1);
    const req3 = (await createRequisition(a.id, { title: 'Edit Three', status: 'open' })).id;
    expect((await patch(p.ids[0]!, { req_id: req3 })).status).toBe(200);
    // req1 is free for them again; req3 is taken.
    const again = await create({ name: 'Rhea Route', email: p.email, req_id: req1 });
    expect(again.status, again.text).toBe(201);
    const taken = await create({ name: 'Rhea Route', email: p.email, req_id: req3 });
    expect(taken.body).toMatchObject({ code: 'duplicate_candidate', existing_id: p.ids[0] });
  });

  it('a candidate written before people (no person) is edited alone, as before', async () => {
    const id = newId();
    const at = nowIso();
    await insertCandidate(a.id, {
      id,
      name: 'Old Timer',
      email: unique('old'),
      stage: 'applied',
      created_at: at,
      updated_at: at,
      stage_entered_at: at,
    });
    const res = await patch(id, { name: 'Old Timer Two' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Old Timer Two', person_id: null });
  });

  it('the backfill gives candidates written before people their person, matching by email, once', async () => {
    const email = unique('legacy');
    const at = nowIso();
    const ids = [newId(), newId()];
    for (const [i, id] of ids.entries()) {
      await insertCandidate(a.id, {
        id,
        name: 'Lee Legacy',
        email: i ? email.toUpperCase() : email,
        stage: 'applied',
        req_id: [req1, req2][i],
        req_title: 'Edit',
        created_at: at,
        updated_at: at,
        stage_entered_at: at,
      });
    }
    expect(await backfillPeople()).toBeGreaterThanOrEqual(2);
    const [one, two] = [await get(ids[0]!), await get(ids[1]!)];
    expect(one.person_id).toBeTruthy();
    expect(two.person_id).toBe(one.person_id);
    expect(await backfillPeople()).toBe(0);
    // From now on the duplicate rule and the match see them.
    const dup = await create({ name: 'Lee Legacy', email, req_id: req1 });
    expect(dup.body).toMatchObject({ code: 'duplicate_candidate', existing_id: ids[0] });
  });
});
