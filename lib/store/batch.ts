/** BatchWriteItem puts with retries of what DynamoDB leaves unprocessed. */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
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

const keyOf = (i: Item) => `${i.PK}\u0000${i.SK}`;

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
            new BatchWriteCommand({ RequestItems: { [tableName]: left.map((Item) => ({ PutRequest: { Item } })) } }),
          );
          left = (res.UnprocessedItems?.[tableName] ?? []).map((r) => r.PutRequest!.Item as Item);
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
