/**
 * Idempotency-Key on POST /api/v1/candidates, POST /api/v1/pipeline and PATCH
 * /api/v1/candidates/{id}: replays, mismatches, in-flight conflicts, malformed keys, scope
 * (tenant and route), and ten racing retries giving one write and one event (read from the
 * table's stream, as the fan-out reads it).
 */
import { dynamodbEndpoint } from '../helpers/dynamodb-endpoint';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack, type TestTenant, collectEvents } from '../helpers/stack';
import type { WebhookEvent } from '../../lib/webhooks/events';
import { queryAll, prefixQuery, ddbClient } from '../../lib/store/client';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { idempotencyKeyOf } from '../../lib/idempotency';

let stack: Stack;
let t: TestTenant;
let other: TestTenant;
let token: string;
const events: WebhookEvent[] = [];
let poller: { stop(): Promise<void> };

beforeAll(async () => {
  stack = await startStack({ stream: true });
  t = await stack.tenant();
  other = await stack.tenant();
  token = await t.token(['*']);
  poller = await collectEvents(stack.tableName, dynamodbEndpoint(), events);
});
afterAll(async () => {
  await poller?.stop();
  await stack.close();
});

const withKey = (key: string) => ({ 'Idempotency-Key': key });
const post = (body: unknown, key?: string, tok = token) =>
  stack.call('POST', '/api/v1/candidates', { token: tok, body, headers: key === undefined ? {} : withKey(key) });

/** The tenant's candidate items named `name` (a consistent Query of the base table). */
async function candidatesNamed(tenantId: string, name: string) {
  const items = await queryAll({ ...prefixQuery(`T#${tenantId}`, 'CAND#'), ConsistentRead: true });
  return items.filter((i) => i.name === name);
}
/**
 * Events of a type about one candidate, once the stream has passed every earlier write: a marker
 * candidate is created in the same tenant partition (whose stream records keep their order) and
 * its event awaited, so a second event of an earlier write would have arrived by then.
 */
async function eventsAbout(id: string, type: string) {
  const marker = await post({ name: `Marker ${randomUUID()}` });
  expect(marker.status, marker.text).toBe(201);
  const seen = () =>
    events.some((e) => e.type === 'candidate.created' && (e.data as { candidateId?: string }).candidateId === marker.body.data.id);
  for (const deadline = Date.now() + 20_000; !seen() && Date.now() < deadline; ) await sleep(50);
  expect(seen(), 'the marker event never came through the stream').toBe(true);
  return events.filter((e) => e.type === type && (e.data as { candidateId?: string }).candidateId === id);
}

describe('POST /api/v1/candidates with Idempotency-Key', () => {
  it('replays the first answer (status, body, headers) without a second write or event', async () => {
    const key = randomUUID();
    const name = `Idem ${key}`;
    // emitMetric writes each metric through its own single-metric instance.
    const spy = vi.spyOn(Metrics.prototype, 'addMetric');
    const first = await post({ name, email: 'idem@example.com' }, key);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post({ email: 'idem@example.com', name }, key); // same body, other key order
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(spy).toHaveBeenCalledWith('IdempotentReplays', 'Count', 1);
    spy.mockRestore();
    expect(await candidatesNamed(t.id, name)).toHaveLength(1);
    expect(await eventsAbout(first.body.data.id, 'candidate.created')).toHaveLength(1);
    expect(stack.logs.join('\n')).not.toContain(key);
  });

  it('stores the record in the tenant partition with a TTL about 24 h out', async () => {
    const key = randomUUID();
    expect((await post({ name: 'Ttl' }, key)).status).toBe(201);
    const items = await queryAll(prefixQuery(`T#${t.id}#IDEM`, 'POST /api/v1/candidates#'));
    expect(items.length).toBeGreaterThan(0);
    const now = Date.now() / 1000;
    for (const i of items) {
      expect(i.expires_at as number).toBeGreaterThan(now + 23.9 * 3600);
      expect(i.expires_at as number).toBeLessThan(now + 24.1 * 3600);
      // Nothing that marks an event source: the fan-out never sees these records.
      expect(i.type).toBeUndefined();
    }
  });

  it('answers 422 idempotency_mismatch to the same key with another body, and writes nothing', async () => {
    const key = randomUUID();
    expect((await post({ name: 'Mismatch A' }, key)).status).toBe(201);
    const res = await post({ name: 'Mismatch B' }, key);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'idempotency_mismatch', error: expect.stringContaining('Idempotency-Key') });
    expect(await candidatesNamed(t.id, 'Mismatch B')).toHaveLength(0);
  });

  it('does not keep failures: a 400/404 leaves the key free for a corrected retry', async () => {
    const key = randomUUID();
    const missingReq = await post({ name: 'Fails', req_id: randomUUID() }, key);
    expect(missingReq.status).toBe(400);
    const fixed = await post({ name: 'Fails' }, key);
    expect(fixed.status, fixed.text).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('without the header every request writes (the header is optional)', async () => {
    const name = `NoKey ${randomUUID()}`;
    expect((await post({ name })).status).toBe(201);
    expect((await post({ name })).status).toBe(201);
    expect(await candidatesNamed(t.id, name)).toHaveLength(2);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['non-printable (tab)', 'abc\tdef'],
    ['non-ASCII', 'clé-é'],
    ['only spaces', '   '],
  ])('refuses a malformed key (%s) with 400 and writes nothing', async (_why, key) => {
    const name = `Bad key ${randomUUID()}`;
    const res = await post({ name }, key);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.stringContaining('Idempotency-Key'), code: 'invalid_field' });
    expect(await candidatesNamed(t.id, name)).toHaveLength(0);
  });

  it('refuses control characters that no HTTP client would send (checked on the event)', async () => {
    expect(() => idempotencyKeyOf({ headers: { 'idempotency-key': 'a\u0001b' } })).toThrow('Idempotency-Key');
    expect(() => idempotencyKeyOf({ headers: { 'idempotency-key': 'a\u007fb' } })).toThrow('Idempotency-Key');
    expect(idempotencyKeyOf({ headers: { 'IDEMPOTENCY-KEY': 'ok-key' } })).toBe('ok-key');
    expect(idempotencyKeyOf({ headers: {} })).toBeUndefined();
  });

  it('accepts a 255-character key', async () => {
    expect((await post({ name: 'Long key' }, 'k'.repeat(255))).status).toBe(201);
  });

  it('ten parallel retries give exactly one write and one event; the others replay or get 409', async () => {
    const key = randomUUID();
    const name = `Race ${key}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => post({ name }, key)));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(),
    ).toBe(true);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    expect(created.filter((a) => a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body.code).toBe('idempotency_conflict');
      expect(a.headers.get('retry-after')).toBe('1');
    }
    const items = await candidatesNamed(t.id, name);
    expect(items).toHaveLength(1);
    expect(await eventsAbout(items[0]!.id as string, 'candidate.created')).toHaveLength(1);
    // After the race a retry replays.
    const late = await post({ name }, key);
    expect(late.status).toBe(201);
    expect(late.body.data.id).toBe(items[0]!.id);
  });

  it('answers 409 idempotency_conflict while the first request is still running', async () => {
    const key = randomUUID();
    // The domain write is held back through the shared client until the second request is answered.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    ddbClient.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') await gate;
        return next(args);
      },
      { step: 'initialize', name: 'holdTransactions' },
    );
    try {
      const first = post({ name: 'In flight' }, key);
      await sleep(300);
      const second = await post({ name: 'In flight' }, key);
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('idempotency_conflict');
      release();
      expect((await first).status).toBe(201);
    } finally {
      release();
      ddbClient.middlewareStack.remove('holdTransactions');
    }
    expect(await candidatesNamed(t.id, 'In flight')).toHaveLength(1);
  });
});

describe('scope', () => {
  it("tenant A's key never replays for tenant B", async () => {
    const key = randomUUID();
    const a = await post({ name: 'Scope A' }, key);
    const b = await post({ name: 'Scope A' }, key, await other.token(['candidates:write']));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.data.id).not.toBe(a.body.data.id);
    expect(await candidatesNamed(other.id, 'Scope A')).toHaveLength(1);
  });

  it('a key is scoped to the route, not the token: another token of the tenant replays', async () => {
    const key = randomUUID();
    const first = await post({ name: 'Two tokens' }, key);
    const second = await post({ name: 'Two tokens' }, key, await t.token(['candidates:write']));
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    // The same key on another route is another key.
    const moved = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: first.body.data.id, stage: 'ai_screened' },
      headers: withKey(key),
    });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a token without the scope is refused before any key is looked at', async () => {
    const res = await post({ name: 'No scope' }, randomUUID(), await t.token(['candidates:read']));
    expect(res.status).toBe(403);
  });

  it('GET routes ignore the header', async () => {
    const res = await stack.call('GET', '/api/v1/candidates?limit=1', { token, headers: withKey('') });
    expect(res.status).toBe(200);
  });
});

describe('POST /api/v1/pipeline and PATCH /api/v1/candidates/{id}', () => {
  it('a replayed stage move answers as the first did, with one history record and one event', async () => {
    const id = (await post({ name: 'Mover' })).body.data.id as string;
    const key = randomUUID();
    const body = { candidate_id: id, stage: 'ai_screened' };
    const first = await stack.call('POST', '/api/v1/pipeline', { token, body, headers: withKey(key) });
    // A move in between: without the key the retry would move it back.
    expect((await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'interview_scheduled' } })).status).toBe(
      200,
    );
    const retry = await stack.call('POST', '/api/v1/pipeline', { token, body, headers: withKey(key) });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const detail = await stack.call('GET', `/api/v1/candidates/${id}`, { token });
    expect(detail.body.data.stage).toBe('interview_scheduled');
    expect(detail.body.data.stage_history.map((s: { stage: string }) => s.stage)).toEqual([
      'applied',
      'ai_screened',
      'interview_scheduled',
    ]);
    expect(await eventsAbout(id, 'candidate.stage_changed')).toHaveLength(2);
    const mismatch = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: id, stage: 'offer_sent' },
      headers: withKey(key),
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.code).toBe('idempotency_mismatch');
  });

  it('PATCH replays per candidate: the same key and body on another id is a mismatch', async () => {
    const a = (await post({ name: 'Patch A' })).body.data.id as string;
    const b = (await post({ name: 'Patch B' })).body.data.id as string;
    const key = randomUUID();
    const first = await stack.call('PATCH', `/api/v1/candidates/${a}`, { token, body: { phone: '+1 555 0100' }, headers: withKey(key) });
    expect(first.status).toBe(200);
    const retry = await stack.call('PATCH', `/api/v1/candidates/${a}`, { token, body: { phone: '+1 555 0100' }, headers: withKey(key) });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    const elsewhere = await stack.call('PATCH', `/api/v1/candidates/${b}`, {
      token,
      body: { phone: '+1 555 0100' },
      headers: withKey(key),
    });
    expect(elsewhere.status).toBe(422);
    expect(await eventsAbout(a, 'candidate.updated')).toHaveLength(1);
    expect(await eventsAbout(b, 'candidate.updated')).toHaveLength(0);
  });
});
