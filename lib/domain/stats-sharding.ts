/**
 * The counter shards' operator command (`npm run admin -- stats shard <slug>|--all`) and
 * `npm start`'s check: workspaces made before the shards get theirs (lib/store/stats-shards.ts).
 */
import { allTenantIds } from '../store/audit-migrate';
import { shardStats } from '../store/stats-shards';
import { getTenantBySlug } from '../store/tenants';

/** Shard one workspace by slug, or every workspace; resolves with each one's outcome. */
export async function statsShardCli(slug: string | undefined, log: (line: string) => void) {
  const ids = slug === undefined ? await allTenantIds() : [(await getTenantBySlug(slug)).id];
  const done: Record<string, string> = {};
  for (const [n, id] of ids.entries()) {
    done[id] = await shardStats(id);
    log(`stats shard: ${n + 1}/${ids.length} workspaces done`);
  }
  return done;
}

/** `npm start`: shard the workspaces (`ids`: allTenantIds) that have no shards yet; resolves with how many it sharded. */
export async function shardUnshardedStats(ids: string[]): Promise<number> {
  let sharded = 0;
  for (const id of ids) if ((await shardStats(id)) === 'sharded') sharded++;
  return sharded;
}
