/**
 * The audit log under contention: many actors (tokens) create and move candidates and change a
 * shared requisition at the same time, while the intents are expanded concurrently and more than
 * once (as a redelivering stream and a settle run would). Afterwards every change's record is
 * present exactly once, and paging through every view and every filter combination, at several
 * page sizes, gives exactly the records the whole log says match, newest first.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settleAudit } from '../helpers/audit';
import { PASSWORD, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let cookie: string;
let tokens: string[];
let reqId: string;
const ACTORS = 8;
const CANDIDATES_EACH = 5;

beforeAll(async () => {
  stack = await startStack();
  const t = await stack.tenant();
  cookie = await stack.login((await t.user('admin')).email, PASSWORD);
  tokens = await Promise.all(Array.from({ length: ACTORS }, () => t.token(['*'])));
  reqId = (await stack.call('POST', '/api/v1/requisitions', { token: tokens[0], body: { title: 'Contended', headcount: 1_000 } })).body.data
    .id;
}, 120_000);
afterAll(() => stack?.close());

interface Rec {
  id: string;
  at: string;
  action: string;
  actor: { id: string };
  target: { id: string };
}

async function pages(query: string, limit: number): Promise<Rec[]> {
  const out: Rec[] = [];
  let cursor: string | null = null;
  do {
    const q = [query, `limit=${limit}`, cursor && `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join('&');
    const res = await stack.call('GET', `/api/audit?${q}`, { headers: { Cookie: cookie } });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

/** One actor's changes: candidates created, each moved, and a title change of the shared requisition. */
async function work(token: string, n: number): Promise<string[]> {
  const done: string[] = [];
  for (let i = 0; i < CANDIDATES_EACH; i++) {
    const created = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Actor ${n} ${i}`, req_id: reqId } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    done.push(`candidate.created|${id}`);
    const moved = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'interviewed' } });
    expect(moved.status, moved.text).toBe(200);
    done.push(`candidate.stage_changed|${id}`);
  }
  // The shared requisition: a change that loses a race is refused (and has no record), one that is made has one.
  const patched = await stack.call('PATCH', `/api/v1/requisitions/${reqId}`, { token, body: { title: `Contended ${n}` } });
  expect([200, 409, 412], patched.text).toContain(patched.status);
  if (patched.status === 200) done.push(`requisition.updated|${reqId}`);
  return done;
}

it('every change has exactly one record, and every view and filter pages to exactly its records', async () => {
  // Expansions race the changes and each other: a record put twice must still be one record.
  let settling = true;
  const settler = (async () => {
    while (settling) await Promise.all([settleAudit(), settleAudit()]);
  })();
  const expected = (await Promise.all(tokens.map((token, n) => work(token, n)))).flat();
  settling = false;
  await settler;
  await settleAudit();

  const all = await pages('', 100);
  expect(new Set(all.map((r) => r.id)).size, 'no record twice').toBe(all.length);
  const ats = all.map((r) => `${r.at}#${r.id}`);
  expect([...ats].sort().reverse(), 'newest first').toEqual(ats);
  const made = all.filter((r) => r.action !== 'requisition.created' && r.action !== 'session.signed_in');
  expect(made.map((r) => `${r.action}|${r.target.id}`).sort(), 'each change once').toEqual([...expected].sort());
  const actors = [...new Set(made.map((r) => r.actor.id))];
  expect(actors).toHaveLength(ACTORS);

  const someTargets = [
    reqId,
    ...made
      .filter((r) => r.action === 'candidate.created')
      .slice(0, 3)
      .map((r) => r.target.id),
  ];
  const mid = all[Math.floor(all.length / 2)]!.at;
  const filters: Record<string, string>[] = [
    {},
    ...actors.slice(0, 3).map((actor) => ({ actor })),
    ...['candidate.created', 'candidate.stage_changed'].map((action) => ({ action })),
    ...someTargets.map((target) => ({ target })),
    { actor: actors[1]!, action: 'candidate.stage_changed' },
    { target: reqId, action: 'requisition.created' },
    { target: someTargets[2]!, action: 'candidate.stage_changed' },
    { target: someTargets[1]!, actor: made.find((r) => r.target.id === someTargets[1])!.actor.id, action: 'candidate.created' },
    { to: mid },
    { from: mid, action: 'candidate.created' },
    { actor: actors[0]!, from: mid },
  ];
  const matches = (f: Record<string, string>) => (r: Rec) =>
    (f.actor === undefined || r.actor.id === f.actor) &&
    (f.action === undefined || r.action === f.action) &&
    (f.target === undefined || r.target.id === f.target) &&
    (f.from === undefined || r.at >= f.from) &&
    (f.to === undefined || r.at <= f.to);
  for (const f of filters) {
    const query = Object.entries(f)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('&');
    const want = all.filter(matches(f));
    expect(want.length, query).toBeGreaterThan(0);
    for (const limit of [1, 4, 25]) expect(await pages(query, limit), `${query} limit=${limit}`).toEqual(want);
  }
}, 300_000);
