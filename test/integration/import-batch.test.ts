/**
 * The import's batched create (lib/domain/candidate-writes.ts insertCandidates over lib/store/candidate-batch.ts) against DynamoDB Local:
 * several candidates per transaction with one update per counter item, exact counters, and a
 * cancelled transaction that never fails a row's neighbours.
 */
import { settleAudit } from '../helpers/audit';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import type { NewCandidate } from '../../lib/store/candidate-batch';
import type { InsertResult } from '../../lib/domain/candidate-writes';
import type { CandidateRecord } from '../../lib/store/candidates';
import type { Stage } from '../../lib/model';
import { getRequisition } from '../../lib/store/requisitions';
import { getStats } from '../../lib/store/stats';
import { candidateIdsByEmail, candidateIdsByEmails } from '../../lib/store/search';
import { ddb } from '../../lib/store/client';
import { auditIntentsOf } from '../../lib/store/audit-expand';
import { queryAudit } from '../../lib/store/audit-query';
import * as candidates from '../../lib/store/candidates';
import * as candidateWrites from '../../lib/domain/candidate-writes';

const store = { ...candidates, ...candidateWrites };

let stack: Stack;
let tenantId: string;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  const t = await stack.tenant();
  tenantId = t.id;
  token = await t.token(['*']);
});
afterAll(() => stack.close());

const record = (name: string, extra: Partial<CandidateRecord> = {}): CandidateRecord => {
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    name,
    email: `${name.toLowerCase().replace(/\s+/g, '.')}-${randomUUID().slice(0, 6)}@batch.example`,
    stage: 'applied',
    created_at: at,
    updated_at: at,
    stage_entered_at: at,
    ...extra,
  };
};

async function requisition(status: 'open' | 'closed', headcount?: number) {
  const created = await stack.call('POST', '/api/v1/requisitions', {
    token,
    body: { title: `Req ${randomUUID().slice(0, 4)}`, headcount },
  });
  expect(created.status, created.text).toBe(201);
  const id: string = created.body.data.id;
  if (status === 'closed') {
    const res = await stack.call('POST', `/api/v1/requisitions/${id}/status`, { token, body: { status: 'closed', reason: 'Done' } });
    expect(res.status, res.text).toBe(200);
  }
  return (await getRequisition(tenantId, id))!;
}

const stageCounts = async () => {
  const s = await getStats(tenantId);
  const stages: Stage[] = ['applied', 'ai_screened', 'interviewed', 'placed'];
  return { total: s.total, ...(Object.fromEntries(stages.map((st) => [st, s.stage(st)])) as Record<Stage, number>) };
};

/** Every candidate's items as the single create writes them: the candidate, and as many search items as tokens. */
async function stored(c: CandidateRecord) {
  const { getCandidate } = store;
  return { candidate: await getCandidate(tenantId, c.id), byEmail: c.email ? await candidateIdsByEmail(tenantId, c.email) : [] };
}

describe('insertCandidates', () => {
  it('creates a file-sized batch in transactions of at most 100 actions, one counter update per counter item, counters exact', async () => {
    const req = await requisition('open');
    const before = await stageCounts();
    const sizes: number[] = [];
    const send = ddb.send.bind(ddb);
    // Watch the transactions this call sends: their sizes, and one update per counter item in each.
    const spy = (cmd: { input?: { TransactItems?: { Update?: { Key: { SK: string } } }[] } }, ...rest: unknown[]) => {
      const items = cmd.input?.TransactItems;
      if (items) {
        sizes.push(items.length);
        const counters = items.filter((i) => i.Update).map((i) => i.Update!.Key.SK);
        expect(new Set(counters).size).toBe(counters.length);
      }
      return (send as (...a: unknown[]) => unknown)(cmd, ...rest);
    };
    (ddb as unknown as { send: unknown }).send = spy;
    const entries: NewCandidate[] = Array.from({ length: 60 }, (_, i) => ({
      record: record(`Batch Person ${i}`, {
        stage: (['applied', 'ai_screened', 'interviewed'] as const)[i % 3],
        ...(i % 4 === 0 && { req_id: req.id, req_title: req.title }),
      }),
      reqSeen: i % 4 === 0 ? req : undefined,
    }));
    // Created placed with no requisition: its placement is written as the single create writes it.
    entries.push({ record: record('Placed Nowhere', { stage: 'placed' }) });
    let results: InsertResult[];
    try {
      results = await store.insertCandidates(tenantId, entries);
    } finally {
      (ddb as unknown as { send: unknown }).send = send;
    }
    expect(results.every((r) => r.kind === 'created')).toBe(true);
    expect(sizes.length).toBeGreaterThan(1);
    expect(sizes.length).toBeLessThan(entries.length / 5);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
    const after = await stageCounts();
    expect(after).toEqual({
      total: before.total + 61,
      applied: before.applied + 20,
      ai_screened: before.ai_screened + 20,
      interviewed: before.interviewed + 20,
      placed: before.placed + 1,
    });
    expect((await getRequisition(tenantId, req.id))!.c_total).toBe(15);
    for (const e of [entries[0]!, entries[59]!, entries[60]!]) {
      const s = await stored(e.record);
      expect(s.candidate?.name).toBe(e.record.name);
      expect(s.byEmail).toEqual([e.record.id]);
    }
    const list = await stack.call('GET', `/api/v1/candidates?req_id=${req.id}&limit=100`, { token });
    expect(list.body.count).toBe(15);
  });

  it("records each transaction's candidates as one audit intent: one record each once expanded, one item per transaction", async () => {
    const actor = { type: 'token' as const, id: `tok-${randomUUID()}`, name: 'Importer' };
    const entries: NewCandidate[] = Array.from({ length: 30 }, (_, i) => {
      const r = record(`Audited Person ${i}`);
      return {
        record: r,
        audit: { action: 'candidate.created', actor, target: { type: 'candidate', id: r.id }, changes: [{ field: 'name' }] },
      };
    });
    const results = await store.insertCandidates(tenantId, entries);
    expect(results.every((r) => r.kind === 'created')).toBe(true);
    // Stored in the transactions: one intent each (30 rows of 4 actions take two), holding its rows' records.
    const intents = (await auditIntentsOf(tenantId)).filter((i) => (i.record as { actor_id: string }).actor_id === actor.id);
    expect(intents).toHaveLength(2);
    expect(intents.flatMap((i) => i.records as unknown[])).toHaveLength(30);
    // The actor's view of the log once expanded: one record per candidate.
    await settleAudit();
    const { items } = await queryAudit(tenantId, { actor: actor.id }, 100);
    expect(items.map((i) => i.target_id).sort()).toEqual(entries.map((e) => e.record.id).sort());
    expect(new Set(items.map((i) => i.id)).size).toBe(30);
    // A call whose records are not one action of one actor is refused before anything is written.
    const other = { ...entries[0]!.audit!, actor: { type: 'token' as const, id: 'tok-other' } };
    const mixed = [record('Mixed One'), record('Mixed Two')].map((r, i) => ({ record: r, audit: i ? other : entries[0]!.audit }));
    await expect(store.insertCandidates(tenantId, mixed)).rejects.toThrow(/one action of one actor/);
    expect(await store.getCandidate(tenantId, mixed[0]!.record.id)).toBeUndefined();
  });

  it('a requisition closed after it was read refuses its rows as the single create does; their neighbours are created', async () => {
    const open = await requisition('open');
    const closed = await requisition('closed');
    const before = await stageCounts();
    // Read while open: the judge saw it open, and it closed before the write.
    const seenOpen = { ...closed, status: 'open' as const };
    const entries: NewCandidate[] = [
      { record: record('Before Closed') },
      { record: record('On Closed One', { req_id: closed.id, req_title: closed.title }), reqSeen: seenOpen },
      { record: record('On Open', { req_id: open.id, req_title: open.title }), reqSeen: open },
      { record: record('On Closed Two', { req_id: closed.id, req_title: closed.title }), reqSeen: seenOpen },
      { record: record('After Closed') },
    ];
    const results = await store.insertCandidates(tenantId, entries);
    expect(results.map((r) => (r.kind === 'error' ? (r.error as { code?: string }).code : r.kind))).toEqual([
      'created',
      'requisition_not_open',
      'created',
      'requisition_not_open',
      'created',
    ]);
    expect((await stageCounts()).total).toBe(before.total + 3);
    expect((await stored(entries[1]!.record)).candidate).toBeUndefined();
    expect([(await getRequisition(tenantId, closed.id))!.c_total, (await getRequisition(tenantId, open.id))!.c_total]).toEqual([0, 1]);
  });

  it('a row whose id is taken (an earlier run created it) is `exists`, counted nowhere again; a row DynamoDB refuses fails alone', async () => {
    const earlier = record('Earlier Run');
    await store.insertCandidate(tenantId, earlier);
    const before = await stageCounts();
    const entries: NewCandidate[] = [
      { record: record('Fresh One') },
      { record: earlier },
      // An item over DynamoDB's 400 KB: the whole transaction is refused, then this row alone.
      { record: record('Too Big', { resume_url: `https://cv.example/${'x'.repeat(420_000)}` }) },
      { record: record('Fresh Two') },
    ];
    const results = await store.insertCandidates(tenantId, entries);
    expect(results.map((r) => r.kind)).toEqual(['created', 'exists', 'error', 'created']);
    expect((await stageCounts()).total).toBe(before.total + 2);
    expect((await stored(entries[2]!.record)).candidate).toBeUndefined();
  });

  it('a hire on a requisition goes alone: it fills the requisition, and the next hire is refused as on POST /candidates', async () => {
    const req = await requisition('open', 1);
    const entries: NewCandidate[] = [
      { record: record('Hired First', { stage: 'placed', req_id: req.id, req_title: req.title }), reqSeen: req },
      { record: record('Hired Second', { stage: 'placed', req_id: req.id, req_title: req.title }), reqSeen: req },
      { record: record('Neighbour') },
    ];
    const results = await store.insertCandidates(tenantId, entries);
    expect(results.map((r) => (r.kind === 'error' ? (r.error as { code?: string }).code : r.kind))).toEqual([
      'created',
      'requisition_not_open',
      'created',
    ]);
    const res = await stack.call('GET', `/api/v1/requisitions/${req.id}`, { token });
    expect(res.body.data.status).toBe('filled');
  });
});

describe('candidateIdsByEmails (the slice duplicate check)', () => {
  it('answers every email as candidateIdsByEmail does: dense and sparse ranges, prefixes, case, long pages', async () => {
    const tag = randomUUID().slice(0, 6);
    const records: CandidateRecord[] = [
      // 140 emails that sort together, more than one page of the range Query.
      ...Array.from({ length: 140 }, (_, i) => record(`Dense ${i}`, { email: `dense${tag}-${i}@x.example` })),
      // A token that prefixes others (the '#' between token and id sorts below '-' and '.').
      record('Prefix', { email: `p${tag}@x.example` }),
      record('Prefix Longer', { email: `p${tag}@x.example.org` }),
      record('Prefix Dash', { email: `p${tag}@x.example-b` }),
      // A name word equal to an email: a token that is not an email match.
      record(`q${tag}@x.example`, { email: `other-${tag}@y.example` }),
      // Spread over partitions, far apart.
      ...['a', 'm', 'z', 'é'].map((c) => record(`Spread ${c}`, { email: `${c}${tag}@far.example` })),
    ];
    const results = await store.insertCandidates(
      tenantId,
      records.map((r) => ({ record: r })),
    );
    expect(results.every((r) => r.kind === 'created')).toBe(true);
    const asked = [
      ...records.map((r) => r.email!),
      `DENSE${tag}-7@X.example`,
      `dense${tag}-1000@x.example`,
      `q${tag}@x.example`,
      `p${tag}@x.exampl`,
      `nobody-${tag}@x.example`,
      `ê${tag}@far.example`,
      ...Array.from({ length: 30 }, (_, i) => `dense${tag}-${i}0@nowhere.example`),
    ];
    const many = await candidateIdsByEmails(tenantId, asked);
    for (const email of asked) expect(many.get(email), email).toEqual(await candidateIdsByEmail(tenantId, email));
    expect(many.get(records[0]!.email!)).toEqual([records[0]!.id]);
    expect(many.get(`q${tag}@x.example`)).toEqual([]);
  });
});
