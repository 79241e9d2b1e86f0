/**
 * The workspace's counter shards: counted writes spread over them while every count stays the sum
 * of the records; a workspace from before them counts on STATS alone until `stats shard` gives it
 * its shards, with counts right before, during and after; and a writer that believes a workspace
 * unsharded, or an older threshold version, learns from its refused write.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { statsShardCli } from '../../lib/domain/stats-sharding';
import { ddb, tableName } from '../../lib/store/client';
import { shardStats } from '../../lib/store/stats-shards';
import { believedThresholds, learnThresholds, saveThresholds } from '../../lib/store/stuck';
import { keys, STATS_SHARDS } from '../../lib/store/table';
import { startStack, type Stack } from '../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const shardItem = async (tenantId: string, k: number) =>
  (await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.statsShard(tenantId, k), ConsistentRead: true }))).Item;
const shards = async (tenantId: string) => Promise.all(Array.from({ length: STATS_SHARDS }, (_, k) => shardItem(tenantId, k)));

/**
 * Creates and moves through the API. The shard each write picks is at random: here the draws go
 * round the shards in turn, so that which shards took writes is not left to chance.
 */
async function countedWrites(token: string, n: number) {
  let draw = 0;
  const random = vi.spyOn(Math, 'random').mockImplementation(() => ((draw++ % STATS_SHARDS) + 0.5) / STATS_SHARDS);
  try {
    return await writes(token, n);
  } finally {
    random.mockRestore();
  }
}

async function writes(token: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Shard ${i}` } });
    expect(res.status).toBe(201);
    ids.push(res.body.data.id);
  }
  for (const id of ids.slice(0, Math.floor(n / 2)))
    expect((await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'interviewed' } })).status).toBe(200);
  return ids;
}

async function expectCountsRight(token: string) {
  const pipeline = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;
  for (const stage of ['applied', 'interviewed']) {
    const listed = await stack.call('GET', `/api/v1/candidates?stage=${stage}&limit=200`, { token });
    expect(pipeline.stage_counts[stage], stage).toBe(listed.body.data.length);
    expect(listed.body.count, stage).toBe(listed.body.data.length);
  }
  const all = await stack.call('GET', '/api/v1/candidates?limit=200', { token });
  expect(all.body.count).toBe(all.body.data.length);
  return all.body.count as number;
}

/** A workspace as one made before the shards left it: STATS without `stats_shards`, and no shard items. */
async function unshard(tenantId: string) {
  await ddb.send(new UpdateCommand({ TableName: tableName(), Key: keys.stats(tenantId), UpdateExpression: 'REMOVE stats_shards' }));
  for (let k = 1; k < STATS_SHARDS; k++) await ddb.send(new DeleteCommand({ TableName: tableName(), Key: keys.statsShard(tenantId, k) }));
}

describe('a new workspace', () => {
  it('has its shards from the start, each with the thresholds copy; counted writes spread over them and counts stay exact', async () => {
    const t = await stack.tenant();
    const token = await t.token(['*']);
    const made = await shards(t.id);
    expect(made.every((s) => s?.stats_shards === STATS_SHARDS && s.stuck_v === 0)).toBe(true);
    await countedWrites(token, 40);
    expect(await expectCountsRight(token)).toBe(40);
    const totals = (await shards(t.id)).map((s) => Number(s?.n_applied ?? 0) + Number(s?.n_interviewed ?? 0));
    expect(totals.filter((n) => n !== 0).length).toBe(STATS_SHARDS);
  });

  it('a container that believes it unsharded learns of the shards from its first refused write, then spreads', async () => {
    const t = await stack.tenant();
    const token = await t.token(['*']);
    // What a fresh container knows of a workspace it never read: nothing (one shard, version 0).
    learnThresholds(t.id, { PK: 'x', stuck_v: 0 });
    expect(believedThresholds(t.id).shards ?? 1).toBe(1);
    await countedWrites(token, 2);
    expect(believedThresholds(t.id).shards).toBe(STATS_SHARDS);
    expect(await expectCountsRight(token)).toBe(2);
  });

  it('a threshold save moves every copy with STATS, and a writer on the old version learns the new one from any shard', async () => {
    const t = await stack.tenant();
    const token = await t.token(['*']);
    await countedWrites(token, 2);
    const before = believedThresholds(t.id);
    // Another container saves: this one keeps believing the version it had.
    await saveThresholds(t.id, { applied: 9 });
    learnThresholds(t.id, { PK: 'x', stuck_v: before.version, stuck_days: before.overrides, stats_shards: STATS_SHARDS });
    for (const s of await shards(t.id)) expect([s?.stuck_v, s?.stuck_days]).toEqual([before.version + 1, { applied: 9 }]);
    const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Late' } });
    expect(res.status).toBe(201);
    expect(believedThresholds(t.id)).toMatchObject({ version: before.version + 1, overrides: { applied: 9 } });
  });
});

describe('a workspace from before the shards', () => {
  it('counts on STATS alone, then `stats shard` gives it shards in step with its thresholds, and counts stay exact throughout', async () => {
    const t = await stack.tenant();
    const token = await t.token(['*']);
    await unshard(t.id);
    learnThresholds(t.id, await shardItem(t.id, 0));
    await countedWrites(token, 6);
    // Nothing but STATS counted; a save leaves copies no writer reads yet.
    await saveThresholds(t.id, { applied: 4 });
    await saveThresholds(t.id, { applied: 5 });
    const [stats, ...rest] = await shards(t.id);
    expect(stats?.n_applied).toBe(3);
    expect(rest.every((s) => s?.n_applied === undefined && s?.stats_shards === undefined)).toBe(true);
    expect(await expectCountsRight(token)).toBe(6);

    expect(await statsShardCli(t.slug, () => {})).toEqual({ [t.id]: 'sharded' });
    expect(await shardStats(t.id)).toBe('already');
    const version = Number(stats?.stuck_v);
    for (const s of await shards(t.id))
      expect([s?.stats_shards, s?.stuck_v, s?.stuck_days]).toEqual([STATS_SHARDS, version, { applied: 5 }]);
    expect(await expectCountsRight(token)).toBe(6);

    // This container still believes one shard: its next write is refused once, learns, and counts.
    await countedWrites(token, 30);
    expect(believedThresholds(t.id).shards).toBe(STATS_SHARDS);
    expect(await expectCountsRight(token)).toBe(36);
    const spread = (await shards(t.id)).filter((s) => Number(s?.n_applied ?? 0) + Number(s?.n_interviewed ?? 0) !== 0);
    expect(spread.length).toBeGreaterThan(1);
  });

  it('a save between the read and the sharding makes it read again: the copies take the newest version', async () => {
    const t = await stack.tenant();
    await unshard(t.id);
    await saveThresholds(t.id, { applied: 3 });
    const racing = Promise.all([shardStats(t.id), saveThresholds(t.id, { applied: 7 }), saveThresholds(t.id, { applied: 8 })]);
    expect((await racing)[0]).toBe('sharded');
    const all = await shards(t.id);
    const [stats] = all;
    for (const s of all) expect([s?.stuck_v, s?.stuck_days]).toEqual([stats?.stuck_v, stats?.stuck_days]);
  });

  it('an unknown workspace is missing, and the command names none of another', async () => {
    expect(await shardStats('no-such-workspace')).toBe('missing');
  });
});
