/**
 * The stuck index (lib/store/stuck.ts): a threshold save is one UpdateItem and never a 409, the
 * summary stays right while the background re-index runs (per-stage fallback), and the index
 * converges to the newest thresholds however saves, steps and moves interleave. Steps are driven
 * by hand here; stuck-index-stream.test.ts runs them from the table stream as npm start does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, PASSWORD, type Stack, recordDynamoDbCommands, COUNTING_STACK } from '../helpers/stack';
import { expectedEntries, expectedStuck, indexEntries, seedVaried, type Seeded } from '../helpers/stuck';
import { reindexStep, saveThresholds, believedThresholds } from '../../lib/store/stuck';
import { ddbClient, ddb, tableName } from '../../lib/store/client';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys, STATS_SHARDS } from '../../lib/store/table';
import { createCandidate } from '../../lib/domain/candidates';
import { getCandidate } from '../../lib/store/candidates';

let stack: Stack;
const sent: string[] = [];

beforeAll(async () => {
  stack = await startStack(COUNTING_STACK);
  await recordDynamoDbCommands(sent);
}, 120_000);
afterAll(() => stack.close());

async function summary(token: string) {
  sent.length = 0;
  const res = await stack.call('GET', '/api/v1/pipeline', { token });
  expect(res.status).toBe(200);
  return { calls: [...sent].sort(), ids: (res.body.data.stuck_candidates as { id: string }[]).map((c) => c.id), body: res.body.data };
}

describe('stuck index', () => {
  let tenantId: string;
  let token: string;
  let cookies: string[];
  let seeded: Seeded[];

  beforeAll(async () => {
    const t = await stack.tenant();
    tenantId = t.id;
    token = await t.token(['pipeline:read', 'pipeline:write']);
    seeded = await seedVaried(t.id, 1_000);
    const admins = [await t.user('admin'), await t.user('admin')];
    cookies = await Promise.all(admins.map((a) => stack.login(a.email, PASSWORD)));
    await stack.call('GET', '/api/v1/pipeline', { token }); // warm the authorizer cache
  }, 120_000);

  it("answers in two calls (the counters' BatchGetItem + one stuck-index Query), right for the defaults", async () => {
    const s = await summary(token);
    expect(s.calls).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    expect(s.ids).toEqual(expectedStuck(seeded, {}));
    expect(s.ids).toHaveLength(50);
    expect(await indexEntries(tenantId)).toEqual(expectedEntries(seeded, {}));
  });

  it('two saves at once both succeed; the summary is right during the re-index and after; the index converges to the newest', async () => {
    const first = { applied: 1, ai_screened: 0, onboarding: 30 };
    const second = { applied: 9, interviewed: 1, offer_sent: 0 };
    const [a, b] = await Promise.all([
      stack.call('PUT', '/api/settings/pipeline', { body: { stuck_days: first }, headers: { Cookie: cookies[0]! } }),
      stack.call('PUT', '/api/settings/pipeline', { body: { stuck_days: second }, headers: { Cookie: cookies[1]! } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // The newest save wins: whichever landed last is in force.
    const inForce = (await stack.call('GET', '/api/settings/pipeline', { headers: { Cookie: cookies[0]! } })).body.data.stuck_days;
    const winner = inForce.applied === 1 ? first : second;
    expect(inForce).toMatchObject(winner);

    // Pending: the per-stage fallback, already right for the thresholds in force.
    const during = await summary(token);
    expect(during.calls.length).toBeGreaterThan(2);
    expect(during.ids).toEqual(expectedStuck(seeded, winner));

    // The job, one page of 150 at a time (7 steps for 1,000): right after every step.
    const results: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await reindexStep(tenantId, 150);
      results.push(r);
      expect((await summary(token)).ids).toEqual(expectedStuck(seeded, winner));
      if (r === 'done') break;
    }
    expect(results.at(-1)).toBe('done');
    expect(results.filter((r) => r === 'advanced')).toHaveLength(6);
    expect(await reindexStep(tenantId)).toBe('idle');
    const after = await summary(token);
    expect(after.calls).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    expect(after.ids).toEqual(expectedStuck(seeded, winner));
    expect(await indexEntries(tenantId)).toEqual(expectedEntries(seeded, winner));
  }, 120_000);

  it('a save while a job runs supersedes it: the stale step stops, the job restarts with the newest thresholds', async () => {
    await saveThresholds(tenantId, { applied: 2 });
    expect(await reindexStep(tenantId, 300)).toBe('advanced');
    // A step that has read version N when a save of N+1 lands: a one-shot hook on the client
    // saves just before the step's page Query goes out.
    let hooked = false;
    ddbClient.middlewareStack.add(
      (next, context) => async (args) => {
        const input = (args as { input: { ProjectionExpression?: string } }).input;
        if (!hooked && context.commandName === 'QueryCommand' && input.ProjectionExpression?.includes('stuck_d')) {
          hooked = true;
          await saveThresholds(tenantId, { applied: 4, onboarding: 0 });
        }
        return next(args);
      },
      { step: 'initialize', name: 'saveMidStep' },
    );
    try {
      expect(await reindexStep(tenantId, 300)).toBe('superseded');
    } finally {
      ddbClient.middlewareStack.remove('saveMidStep');
    }
    expect(hooked).toBe(true);
    // The job of the newest version starts over from the first page and converges.
    for (let i = 0; i < 20 && (await reindexStep(tenantId, 300)) !== 'done'; i++);
    expect(await indexEntries(tenantId)).toEqual(expectedEntries(seeded, { applied: 4, onboarding: 0 }));
    expect((await summary(token)).calls).toEqual(['BatchGetItemCommand', 'QueryCommand']);
  }, 120_000);

  it('moves during a re-index land with the new thresholds, and are not undone by it', async () => {
    const overrides = { interview_scheduled: 1, applied: 0 };
    await saveThresholds(tenantId, overrides);
    expect(await reindexStep(tenantId, 200)).toBe('advanced');
    // Move ten candidates of every part of the key range; they enter their new stage now.
    const movers = seeded.filter((c) => c.stage === 'applied').slice(0, 10);
    for (const c of movers) {
      const res = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: c.id, stage: 'interview_scheduled' } });
      expect(res.status).toBe(200);
      c.stage = 'interview_scheduled';
      c.entered = (await getCandidate(tenantId, c.id))!.stage_entered_at as string;
    }
    expect((await summary(token)).ids).toEqual(expectedStuck(seeded, overrides));
    for (let i = 0; i < 20 && (await reindexStep(tenantId, 200)) !== 'done'; i++);
    expect(await indexEntries(tenantId)).toEqual(expectedEntries(seeded, overrides));
    const s = await summary(token);
    expect(s.calls).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    expect(s.ids).toEqual(expectedStuck(seeded, overrides));
  }, 120_000);

  it('a writer that believed older thresholds learns the new ones from its failed condition', async () => {
    // Another container saved (on STATS and on every counter shard's copy, as a save does): this
    // one still believes the previous version.
    const before = believedThresholds(tenantId);
    for (let k = 0; k < STATS_SHARDS; k++)
      await ddb.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.statsShard(tenantId, k),
          UpdateExpression: `SET stuck_days = :d, stuck_v = stuck_v + :one${k === 0 ? ', stuck_job = :p' : ''}`,
          ExpressionAttributeValues: { ':d': { applied: 5 }, ':one': 1, ...(k === 0 && { ':p': 'pending' }) },
        }),
      );
    expect(believedThresholds(tenantId).version).toBe(before.version);
    const c = await createCandidate(
      { kind: 'token', tenantId, tenantSlug: '', tokenId: 'test', scopes: [], role: 'admin' },
      { name: 'Late writer', stage: 'applied' },
    );
    expect(believedThresholds(tenantId).version).toBe(before.version + 1);
    expect((await getCandidate(tenantId, c.id))!.stuck_d).toBe(5);
    await saveThresholds(tenantId, {});
  });

  it('a member may not save thresholds, and a save reaches only its own workspace', async () => {
    const other = await stack.tenant();
    const otherToken = await other.token(['pipeline:read']);
    const before = await summary(otherToken);
    const t = await stack.tenant();
    const member = await t.user('recruiter');
    const memberCookie = await stack.login(member.email, PASSWORD);
    const res = await stack.call('PUT', '/api/settings/pipeline', {
      body: { stuck_days: { applied: 1 } },
      headers: { Cookie: memberCookie },
    });
    expect(res.status).toBe(403);
    await stack.call('PUT', '/api/settings/pipeline', { body: { stuck_days: { applied: 1 } }, headers: { Cookie: cookies[0]! } });
    const after = await summary(otherToken);
    expect(after.calls).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    expect(after.body).toEqual(before.body);
  });
});
