/**
 * Who reads offers and placements: admins and recruiters all of them; a hiring manager those of
 * the requisitions whose team names them (by session and by their own token), reads only; another
 * hiring manager gets the 404 of a record they may not see; interviewers never (403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let token: string;
let mine: string;
let theirs: string;
let hm: string;
let otherHm: string;
let interviewer: string;
const offers: Record<'mine' | 'theirs', { cid: string; oid: string; pid: string }> = {} as never;

const TERMS = { compensation: { amount: 88000, currency: 'EUR', period: 'year' }, start_date: '2027-03-01' };
const as = (cookie: string) => ({ headers: { Cookie: cookie } });

async function hired(reqId: string) {
  const n = Math.random().toString(36).slice(2, 8);
  const cand = await stack.call('POST', '/api/v1/candidates', {
    token,
    body: { name: `Reader ${n}`, req_id: reqId, stage: 'interviewed' },
  });
  expect(cand.status).toBe(201);
  const cid = cand.body.data.id as string;
  const offer = await stack.call('POST', `/api/v1/candidates/${cid}/offers`, { token, body: TERMS });
  expect(offer.status).toBe(201);
  const oid = offer.body.data.id as string;
  for (const s of ['pending_approval', 'approved', 'sent', 'accepted']) {
    expect((await stack.call('POST', `/api/v1/offers/${oid}/status`, { token, body: { status: s } })).status).toBe(200);
  }
  expect((await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: cid, stage: 'placed' } })).status).toBe(200);
  const [p] = (await stack.call('GET', `/api/v1/placements?req_id=${reqId}`, { token })).body.data;
  return { cid, oid, pid: p.id as string };
}

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
// Apart from the stack's start, so that each has its own hook time.
beforeAll(async () => {
  const [manager, other, iv] = [await tenant.user('hiring_manager'), await tenant.user('hiring_manager'), await tenant.user('interviewer')];
  const req = async (ids: string[]) =>
    (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Readers', headcount: 2, hiring_manager_ids: ids } })).body
      .data.id as string;
  [mine, theirs] = [await req([manager.id]), await req([other.id])];
  offers.mine = await hired(mine);
  offers.theirs = await hired(theirs);
  [hm, otherHm, interviewer] = [
    await stack.login(manager.email, PASSWORD),
    await stack.login(other.email, PASSWORD),
    await stack.login(iv.email, PASSWORD),
  ];
});
afterAll(() => stack.close());

describe('a hiring manager', () => {
  it("reads the offers and placements of their requisition, with the compensation, and none of another's", async () => {
    const { cid, oid, pid } = offers.mine;
    const offer = await stack.call('GET', `/api/offers/${oid}`, as(hm));
    expect(offer.status, offer.text).toBe(200);
    expect(offer.body.data).toMatchObject({ id: oid, compensation: TERMS.compensation, versions: [expect.any(Object)] });
    const list = await stack.call('GET', `/api/candidates/${cid}/offers`, as(hm));
    expect(list.status).toBe(200);
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([oid]);
    const placement = await stack.call('GET', `/api/placements/${pid}`, as(hm));
    expect(placement.status).toBe(200);
    expect(placement.body.data).toMatchObject({ id: pid, req_id: mine, compensation: TERMS.compensation });
    const all = await stack.call('GET', '/api/placements', as(hm));
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual([pid]);
    expect((await stack.call('GET', `/api/placements?req_id=${mine}`, as(hm))).body.data.map((p: { id: string }) => p.id)).toEqual([pid]);

    // The other requisition's records are not found, as records of another workspace are.
    const t = offers.theirs;
    expect((await stack.call('GET', `/api/offers/${t.oid}`, as(hm))).status).toBe(404);
    expect((await stack.call('GET', `/api/candidates/${t.cid}/offers`, as(hm))).status).toBe(404);
    expect((await stack.call('GET', `/api/placements/${t.pid}`, as(hm))).status).toBe(404);
    const filtered = await stack.call('GET', `/api/placements?req_id=${theirs}`, as(hm));
    expect(filtered.status).toBe(404);
    expect(filtered.body.field).toBe('req_id');
    // And the other hiring manager sees theirs, not these.
    expect((await stack.call('GET', `/api/offers/${t.oid}`, as(otherHm))).status).toBe(200);
    expect((await stack.call('GET', `/api/offers/${oid}`, as(otherHm))).status).toBe(404);
    expect((await stack.call('GET', '/api/placements', as(otherHm))).body.data.map((p: { id: string }) => p.id)).toEqual([t.pid]);
  });

  it('reads the same with their own token (offers:read), and writes nothing', async () => {
    const made = await stack.call('POST', '/api/tokens', { ...as(hm), body: { name: 'hm offers', scopes: ['offers:read'] } });
    expect(made.status, made.text).toBe(201);
    const hmToken = made.body.data.token as string;
    const { oid, pid } = offers.mine;
    expect((await stack.call('GET', `/api/v1/offers/${oid}`, { token: hmToken })).status).toBe(200);
    expect((await stack.call('GET', `/api/v1/offers/${offers.theirs.oid}`, { token: hmToken })).status).toBe(404);
    expect((await stack.call('GET', '/api/v1/placements', { token: hmToken })).body.data.map((p: { id: string }) => p.id)).toEqual([pid]);
    const writer = await stack.call('POST', '/api/tokens', { ...as(hm), body: { name: 'hm write', scopes: ['offers:write'] } });
    expect(writer.status).toBe(403);
    for (const [method, path, body] of [
      ['PATCH', `/api/offers/${oid}`, { location: 'Elsewhere' }],
      ['POST', `/api/offers/${oid}/status`, { status: 'rescinded', reason: 'no' }],
      ['PATCH', `/api/placements/${pid}`, { start_date: '2027-04-01' }],
      ['POST', `/api/placements/${pid}/cancel`, { reason: 'no' }],
      ['POST', `/api/candidates/${offers.mine.cid}/offers`, TERMS],
    ] as const) {
      expect((await stack.call(method, path, { ...as(hm), body })).status, `${method} ${path}`).toBe(403);
    }
    expect((await stack.call('GET', `/api/v1/offers/${oid}`, { token })).body.data.status).toBe('accepted');
  });
});

describe('an interviewer', () => {
  it('never reads an offer or a placement', async () => {
    const { cid, oid, pid } = offers.mine;
    for (const path of [`/api/offers/${oid}`, `/api/candidates/${cid}/offers`, `/api/placements/${pid}`, '/api/placements']) {
      expect((await stack.call('GET', path, as(interviewer))).status, path).toBe(403);
    }
  });
});
