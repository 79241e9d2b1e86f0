/**
 * The stuck index's re-index running in the background from the table stream, as `npm start`
 * runs it (dev/webhooks.ts: a second stream poller invoking functions/stuck-reindex.ts)
 * and as the stack deploys it (infra/constructs/stuck-reindex.ts): two saves at once, the summary right
 * while the job runs, and back to two calls once the index has converged.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, PASSWORD, type Stack, recordDynamoDbCommands, COUNTING_STACK } from '../helpers/stack';
import { expectedEntries, expectedStuck, indexEntries, seedVaried } from '../helpers/stuck';

let stack: Stack;
const sent: string[] = [];

beforeAll(async () => {
  stack = await startStack({ ...COUNTING_STACK, webhooks: {} });
  // Only the summary's own calls: the gateway marks them (see summary()).
  await recordDynamoDbCommands(sent, () => counting);
}, 120_000);
afterAll(() => stack.close());

let counting = false;

it('two saves at once: no 409, the summary stays right while the stream job runs, then two calls again', async () => {
  const t = await stack.tenant();
  const seeded = await seedVaried(t.id, 1_200);
  const token = await t.token(['pipeline:read']);
  const admin = await t.user('admin');
  const cookie = await stack.login(admin.email, PASSWORD);
  await stack.call('GET', '/api/v1/pipeline', { token });
  const summary = async () => {
    // The stream pollers share the process; count only while the request is in flight, and
    // accept a stray call of theirs by checking the shape rather than exact equality below.
    sent.length = 0;
    counting = true;
    const res = await stack.call('GET', '/api/v1/pipeline', { token });
    counting = false;
    expect(res.status).toBe(200);
    return { calls: [...sent], ids: (res.body.data.stuck_candidates as { id: string }[]).map((c) => c.id) };
  };

  const first = { applied: 1, offer_accepted: 0 };
  const second = { applied: 6, interview_scheduled: 2, onboarding: 0 };
  const saves = await Promise.all(
    [first, second].map((stuck_days) => stack.call('PUT', '/api/settings/pipeline', { body: { stuck_days }, headers: { Cookie: cookie } })),
  );
  expect(saves.map((r) => r.status)).toEqual([200, 200]);
  const inForce = (await stack.call('GET', '/api/settings/pipeline', { headers: { Cookie: cookie } })).body.data.stuck_days;
  const winner = inForce.applied === 1 ? first : second;

  // Poll until the job is done; every answer on the way is right.
  const deadline = Date.now() + 120_000;
  let sawFallback = false;
  let converged = false;
  while (Date.now() < deadline) {
    const s = await summary();
    expect(s.ids).toEqual(expectedStuck(seeded, winner));
    const queries = s.calls.filter((c) => c === 'QueryCommand').length;
    if (queries > 1) sawFallback = true;
    if (queries === 1 && s.calls.filter((c) => c === 'BatchGetItemCommand').length === 1) {
      converged = true;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(sawFallback).toBe(true);
  expect(converged).toBe(true);
  expect(await indexEntries(t.id)).toEqual(expectedEntries(seeded, winner));
  // The job logged its steps, none failed.
  expect(stack.logs.filter((l) => l.includes('stuck-reindex threw'))).toEqual([]);
}, 180_000);
