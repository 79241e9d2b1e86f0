/** BatchWriteItem puts and BatchGetItem reads, with retries of what DynamoDB leaves unprocessed. */
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from '../logger';
import { ddb, tableName } from './client';

type Item = Record<string, unknown>;

/** BatchWriteItem's limit per call. */
const BATCH_SIZE = 25;
/** Calls per chunk, the first included; then what is left counts as not written. */
const MAX_CALLS = 5;
/** Refusals no retry can change: the chunk fails at once. */
const NOT_RETRIED = new Set(['ValidationException', 'AccessDeniedException']);

/** Full-jitter exponential backoff: 50 ms after the first call, doubling, capped at 1 s. */
const backoff = (attempt: number) => sleep(Math.random() * Math.min(1_000, 25 * 2 ** attempt));

/** An item's key as one string: what existingKeys answers, and how batchPut tells items apart. */
export const keyOf = (i: { PK?: unknown; SK?: unknown }) => `${i.PK}\u0000${i.SK}`;

/**
 * Put `items`, 25 per call, all chunks at once, retrying unprocessed items and failed calls with
 * backoff up to MAX_CALLS per chunk. Resolves to the items that could not be written (none
 * normally); it never throws for a failed write, so the caller decides what an unwritten item
 * means. Items with the same key are written once: BatchWriteItem refuses a request naming a key
 * twice, and callers may hold one item twice (the same body kept for two endpoints).
 */
export async function batchPut(items: Item[]): Promise<Item[]> {
  const unique = [...new Map(items.map((i) => [keyOf(i), i])).values()];
  const chunks: Item[][] = [];
  for (let i = 0; i < unique.length; i += BATCH_SIZE) chunks.push(unique.slice(i, i + BATCH_SIZE));
  const failed: Item[] = [];
  await Promise.all(
    chunks.map(async (chunk) => {
      let left = chunk;
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await ddb.send(
            new BatchWriteCommand({ RequestItems: { [tableName()]: left.map((Item) => ({ PutRequest: { Item } })) } }),
          );
          left = (res.UnprocessedItems?.[tableName()] ?? []).map((r) => r.PutRequest!.Item as Item);
        } catch (err) {
          // The whole call failed (the client already retried throttling). Logged by error name
          // only: the items may hold personal data.
          const name = (err as Error).name;
          logger.warn('batch write failed', { error: name, attempt, items: left.length });
          if (NOT_RETRIED.has(name)) break;
        }
        if (!left.length || attempt >= MAX_CALLS) break;
        await backoff(attempt);
      }
      failed.push(...left);
    }),
  );
  const failedKeys = new Set(failed.map(keyOf));
  return items.filter((i) => failedKeys.has(keyOf(i)));
}

/** BatchGetItem's limit per call. */
const GET_SIZE = 100;

/**
 * The items at these keys: 100 keys per call, all chunks at once, unprocessed keys asked again
 * with backoff up to MAX_CALLS per chunk. One call instead of a GetItem per key is most of the
 * saving: each call costs far more than each key it names. It throws if a chunk cannot be read,
 * so the caller never mistakes an unread key for an absent one. `projection` must name PK and SK
 * for the caller to tell the items apart.
 */
export async function batchGet(keys: { PK: string; SK: string }[], read: { projection?: string; consistent?: boolean }): Promise<Item[]> {
  const unique = [...new Map(keys.map((k) => [keyOf(k), { PK: k.PK, SK: k.SK }])).values()];
  const found: Item[] = [];
  const chunks: { PK: string; SK: string }[][] = [];
  for (let i = 0; i < unique.length; i += GET_SIZE) chunks.push(unique.slice(i, i + GET_SIZE));
  await Promise.all(
    chunks.map(async (chunk) => {
      let left: Record<string, unknown>[] = chunk;
      for (let attempt = 1; left.length; attempt++) {
        if (attempt > MAX_CALLS) throw new Error(`batch read left ${left.length} keys unread`);
        if (attempt > 1) await backoff(attempt - 1);
        const res = await ddb.send(
          new BatchGetCommand({
            RequestItems: { [tableName()]: { Keys: left, ConsistentRead: read.consistent, ProjectionExpression: read.projection } },
          }),
        );
        found.push(...(res.Responses?.[tableName()] ?? []));
        left = res.UnprocessedKeys?.[tableName()]?.Keys ?? [];
      }
    }),
  );
  return found;
}

/** Which of these keys hold an item (batchGet, strongly consistent), as keyOf strings. */
export async function existingKeys(keys: { PK: string; SK: string }[]): Promise<Set<string>> {
  return new Set((await batchGet(keys, { projection: 'PK, SK', consistent: true })).map(keyOf));
}
