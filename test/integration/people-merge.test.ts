/**
 * Merging two people: the candidates re-parented (ids unchanged), notes with their history,
 * mentions and activity moved, the emails' claims pointed at the kept person, the event, the
 * refusals, isolation and roles, a merge stopped after its committing write and finished by a
 * retry, and erasure after a merge (and in the middle of one) proven by a full-table scan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideMerge } from '../../lib/domain/merge-rules';
import { readMerge, writeMerge } from '../../lib/store/person-merge';
import { createRequisition } from '../../lib/store/requisitions';
import { eventsFromChange } from '../../lib/webhooks/events';
import { settleAudit } from '../helpers/audit';
import { scanTable } from '../helpers/scan';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;
let cookieA: string;
let memberId: string;
let req1: string;
let req2: string;
let req3: string;

beforeAll(async () => {
  stack = await startStack();
  [a, b] = [await stack.tenant(), await stack.tenant()];
  tokenA = await a.token(['*']);
  tokenB = await b.token(['*']);
  const recruiter = await a.user('recruiter');
  memberId = recruiter.id;
  cookieA = await stack.login(recruiter.email, PASSWORD);
  req1 = (await createRequisition(a.id, { title: 'Backend Engineer', status: 'open' })).id;
  req2 = (await createRequisition(a.id, { title: 'Data Engineer', status: 'open' })).id;
  req3 = (await createRequisition(a.id, { title: 'Site Reliability Engineer', status: 'open' })).id;
});
afterAll(() => stack.close());

let n = 0;
const unique = (tag: string) => `${tag}.${++n}.${Date.now()}@merge.example`;
const create = async (body: Record<string, unknown>, token = tokenA) => {
  const res = await stack.call('POST', '/api/v1/candidates', { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; person_id: string };
};
const merge = (id: string, from: string, token = tokenA) => stack.call('POST', `/api/v1/people/${id}/merge`, { token, body: { from } });
const partitionOf = async (personId: string) =>
  (await scanTable({ TableName: stack.tableName })).filter((i) => String(i.PK).endsWith(`#PERSON#${personId}`));

describe('merge', () => {
  it("moves the other person's candidates, notes with history, mentions, activity and emails onto this one, and deletes them", async () => {
    const [e1, e2] = [unique('mia'), unique('mia.work')];
    const kept = await create({ name: 'Mia Merge', email: e1, phone: '+44 20 7946 0101', req_id: req1 });
    const other = await create({ name: 'Mia M', email: e2, req_id: req2 });
    const otherLoose = await create({ name: 'Mia M', email: e2 });
    const [to, from] = [kept.person_id, other.person_id];
    const note = await stack.call('POST', `/api/v1/people/${from}/notes`, {
      token: tokenA,
      body: { body: 'Met at the meetup', visibility: 'team', mentions: [memberId] },
    });
    expect(note.status, note.text).toBe(201);
    const noteId = note.body.data.id as string;
    const edit = await stack.call('PATCH', `/api/v1/people/${from}/notes/${noteId}`, {
      token: tokenA,
      body: { body: 'Met at the meetup, twice' },
    });
    expect(edit.status, edit.text).toBe(200);
    await settleAudit();

    const res = await merge(to, from);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ id: to, name: 'Mia Merge', email: e1 });
    expect(res.body.data.candidates.map((c: { id: string }) => c.id).sort()).toEqual([kept.id, other.id, otherLoose.id].sort());

    // The candidates keep their ids and show the kept person's fields.
    const moved = await stack.call('GET', `/api/v1/candidates/${other.id}`, { token: tokenA });
    expect(moved.body.data).toMatchObject({
      id: other.id,
      person_id: to,
      name: 'Mia Merge',
      email: e1,
      phone: '+44 20 7946 0101',
      req_id: req2,
    });
    expect((await stack.call('GET', `/api/v1/people/${from}`, { token: tokenA })).status).toBe(404);
    // The note, with its history, is the kept person's; the mention names them.
    const notes = await stack.call('GET', `/api/v1/people/${to}/notes`, { token: tokenA });
    expect(notes.body.data.map((x: { id: string; person_id: string }) => [x.id, x.person_id])).toEqual([[noteId, to]]);
    const withHistory = await stack.call('GET', `/api/v1/people/${to}/notes/${noteId}`, { token: tokenA });
    expect(withHistory.status, withHistory.text).toBe(200);
    expect(withHistory.body.data.history.map((v: { body: string }) => v.body)).toEqual(['Met at the meetup']);
    const inbox = await stack.call('GET', '/api/mentions', { headers: { Cookie: cookieA } });
    expect(inbox.body.data.filter((m: { note_id: string }) => m.note_id === noteId).map((m: { person_id: string }) => m.person_id)).toEqual(
      [to],
    );
    // Nothing is left under the merged person.
    expect(await partitionOf(from)).toEqual([]);

    // Either email now matches the kept person: a new create on a third requisition joins them,
    // the same requisition again is a duplicate.
    const third = await create({ name: 'Whoever', email: e2.toUpperCase(), req_id: req3 });
    expect(third.person_id).toBe(to);
    const dup = await stack.call('POST', '/api/v1/candidates', { token: tokenA, body: { name: 'Mia', email: e2, req_id: req2 } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'duplicate_candidate', existing_id: other.id });

    // The feed moved, and tells of the merge; the audit log has it.
    await settleAudit();
    const feed = await stack.call('GET', `/api/v1/people/${to}/activity?limit=100`, { token: tokenA });
    const kinds = feed.body.data.map((i: { kind: string }) => i.kind);
    expect(kinds).toEqual(expect.arrayContaining(['person.merged', 'note.created', 'note.edited', 'candidate.created']));
    expect(feed.body.data.find((i: { kind: string }) => i.kind === 'person.merged')).toMatchObject({
      from_person_id: from,
      candidate_ids: expect.arrayContaining([other.id, otherLoose.id]),
    });

    // One person.merged event, ids only; the moved note and record are no new events.
    const items = await partitionOf(to);
    const record = items.find((i) => i.type === 'person_merge')!;
    expect(record.pending).toBeUndefined();
    const events = items.flatMap((i) => eventsFromChange({ name: 'INSERT', id: `s-${String(i.SK)}`, newImage: i } as never));
    expect(events.map((e) => e.type)).toEqual(['person.merged']);
    expect(events[0]!.data).toEqual({
      personId: to,
      fromPersonId: from,
      candidateIds: expect.arrayContaining([other.id, otherLoose.id]),
      mergedAt: record.at,
    });
  });

  it("a merge carries the merged person's earlier merges along, without a second event", async () => {
    const x = await create({ name: 'Xa', email: unique('xa') });
    const y = await create({ name: 'Ya', email: unique('ya'), req_id: req1 });
    const z = await create({ name: 'Za', email: unique('za'), req_id: req2 });
    expect((await merge(y.person_id, z.person_id)).status).toBe(200);
    const res = await merge(x.person_id, y.person_id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.candidates).toHaveLength(3);
    const records = (await partitionOf(x.person_id)).filter((i) => i.type === 'person_merge');
    expect(records.map((r) => r.from_person_id).sort()).toEqual([y.person_id, z.person_id].sort());
    const events = records.flatMap((i) => eventsFromChange({ name: 'INSERT', id: `s-${String(i.SK)}`, newImage: i } as never));
    expect(events.map((e) => e.data.fromPersonId)).toEqual([y.person_id]);
  });
});

describe('refusals', () => {
  it('the same requisition on both sides is a 409 duplicate_candidate naming the kept one; nothing changes', async () => {
    const p = await create({ name: 'Pat One', email: unique('pat'), req_id: req1 });
    const q = await create({ name: 'Pat Two', email: unique('pat2'), req_id: req1 });
    const res = await merge(p.person_id, q.person_id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'duplicate_candidate', existing_id: p.id });
    expect((await stack.call('GET', `/api/v1/people/${q.person_id}`, { token: tokenA })).body.data.candidates).toHaveLength(1);
    expect((await stack.call('GET', `/api/v1/candidates/${q.id}`, { token: tokenA })).body.data.person_id).toBe(q.person_id);
  });

  it('merging a person into themselves is a 400 on from', async () => {
    const p = await create({ name: 'Solo', email: unique('solo') });
    const res = await merge(p.person_id, p.person_id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'from' });
  });

  it("passing the cap on a person's candidates is a 409 person_limit", async () => {
    const [e1, e2] = [unique('many'), unique('many2')];
    const reqs = await Promise.all(Array.from({ length: 21 }, (_, i) => createRequisition(a.id, { title: `Role ${i}`, status: 'open' })));
    let p = '';
    let q = '';
    for (const [i, r] of reqs.entries()) {
      const made = await create({ name: 'Many', email: i < 11 ? e1 : e2, req_id: r.id });
      if (i < 11) p = made.person_id;
      else q = made.person_id;
    }
    const res = await merge(p, q);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'person_limit' });
  }, 120_000);

  it("another workspace's people are a 404 either way, and stay as they were", async () => {
    const mine = await create({ name: 'Mine', email: unique('mine') });
    const theirs = await create({ name: 'Theirs', email: unique('theirs') }, tokenB);
    const intoMine = await merge(mine.person_id, theirs.person_id);
    expect(intoMine.status).toBe(404);
    expect(intoMine.body).toMatchObject({ code: 'not_found', field: 'from' });
    expect((await merge(mine.person_id, theirs.person_id, tokenB)).status).toBe(404);
    expect((await merge(theirs.person_id, mine.person_id)).status).toBe(404);
    expect((await stack.call('GET', `/api/v1/people/${theirs.person_id}`, { token: tokenB })).status).toBe(200);
    expect((await stack.call('GET', `/api/v1/people/${mine.person_id}`, { token: tokenA })).status).toBe(200);
  });

  it('needs candidates:write and a recruiting role; the console twin merges for a recruiter', async () => {
    const p = await create({ name: 'Role One', email: unique('role'), req_id: req1 });
    const q = await create({ name: 'Role Two', email: unique('role2'), req_id: req2 });
    expect((await merge(p.person_id, q.person_id, await a.token(['candidates:read']))).status).toBe(403);
    const manager = await a.user('hiring_manager');
    const managerCookie = await stack.login(manager.email, PASSWORD);
    const refused = await stack.call('POST', `/api/people/${p.person_id}/merge`, {
      headers: { Cookie: managerCookie },
      body: { from: q.person_id },
    });
    expect(refused.status).toBe(403);
    const twin = await stack.call('POST', `/api/people/${p.person_id}/merge`, {
      headers: { Cookie: cookieA },
      body: { from: q.person_id },
    });
    expect(twin.status, twin.text).toBe(200);
    expect(twin.body.data.candidates).toHaveLength(2);
  });
});

/** The committing write of a merge alone, as a request that stopped right after it leaves things. */
async function commitOnly(tenantId: string, to: string, from: string) {
  const d = decideMerge(to, from, await readMerge(tenantId, to, from), new Date().toISOString());
  if (!('plan' in d)) throw new Error('the merge was not planned');
  expect('written' in (await writeMerge(tenantId, d.plan, new Date().toISOString(), []))).toBe(true);
}

describe('a merge that stopped midway', () => {
  it('is finished by a retry of the same request', async () => {
    const p = await create({ name: 'Res Ume', email: unique('resume'), req_id: req1 });
    const q = await create({ name: 'Res U', email: unique('resume2'), req_id: req2 });
    const note = await stack.call('POST', `/api/v1/people/${q.person_id}/notes`, {
      token: tokenA,
      body: { body: 'Left behind', visibility: 'team' },
    });
    expect(note.status).toBe(201);
    await commitOnly(a.id, p.person_id, q.person_id);
    expect((await partitionOf(q.person_id)).map((i) => i.type)).toEqual(['note']);
    const retry = await merge(p.person_id, q.person_id);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.data.candidates).toHaveLength(2);
    expect(await partitionOf(q.person_id)).toEqual([]);
    const notes = await stack.call('GET', `/api/v1/people/${p.person_id}/notes`, { token: tokenA });
    expect(notes.body.data.map((x: { id: string }) => x.id)).toEqual([note.body.data.id]);
    expect((await partitionOf(p.person_id)).find((i) => i.type === 'person_merge')!.pending).toBeUndefined();
  });
});

describe('erasure after a merge', () => {
  const needlesIn = async (needles: string[]) =>
    (await scanTable({ TableName: stack.tableName })).filter((i) => needles.some((s) => JSON.stringify(i).toLowerCase().includes(s)));

  it("erasing any candidate erases both people's data everywhere, and the receipt counts every candidate", async () => {
    const [e1, e2] = [unique('erase'), unique('erase2')];
    const p = await create({ name: 'Eraso Keptname', email: e1, req_id: req1 });
    const q = await create({ name: 'Eraso Goneperson', email: e2, req_id: req2 });
    const note = await stack.call('POST', `/api/v1/people/${q.person_id}/notes`, {
      token: tokenA,
      body: { body: 'Secretive remark zqxj', visibility: 'team', mentions: [memberId] },
    });
    expect(note.status).toBe(201);
    expect((await merge(p.person_id, q.person_id)).status).toBe(200);
    await settleAudit();
    const needles = [e1, e2, 'keptname', 'goneperson', 'zqxj'].map((s) => s.toLowerCase());
    expect((await needlesIn(needles)).length).toBeGreaterThan(0);
    const erased = await stack.call('POST', `/api/v1/candidates/${q.id}/erase`, { token: tokenA });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.data.person).toMatchObject({ id: p.person_id, candidates: 2 });
    await settleAudit();
    expect((await needlesIn(needles)).map((i) => [i.type, i.PK])).toEqual([]);
    const left = (await scanTable({ TableName: stack.tableName })).filter(
      (i) => JSON.stringify(i).includes(p.person_id) || JSON.stringify(i).includes(q.person_id),
    );
    expect(left.map((i) => i.type).filter((t) => t !== 'candidate' && !String(t).startsWith('audit'))).toEqual([]);
  });

  it('in the middle of a merge, erasing the kept person reaches what was not moved yet', async () => {
    const p = await create({ name: 'Midway Keptone', email: unique('mid') });
    const q = await create({ name: 'Midway Goneone', email: unique('mid2'), req_id: req1 });
    const note = await stack.call('POST', `/api/v1/people/${q.person_id}/notes`, {
      token: tokenA,
      body: { body: 'Unmoved remark wvkp', visibility: 'team' },
    });
    expect(note.status).toBe(201);
    await commitOnly(a.id, p.person_id, q.person_id);
    const erased = await stack.call('POST', `/api/v1/candidates/${p.id}/erase`, { token: tokenA });
    expect(erased.status, erased.text).toBe(200);
    expect(await needlesIn(['wvkp', 'keptone', 'goneone'])).toEqual([]);
    expect(await partitionOf(q.person_id)).toEqual([]);
  });
});
