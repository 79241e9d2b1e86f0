/** Optimistic-concurrency helpers: writes that race use condition expressions and retry. */
import { ConditionalCheckFailedException, TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';

export type CancellationReason = { Code?: string; Item?: Record<string, unknown> };

/** Cancellation reasons of a transaction, one per action, or undefined for other errors. */
export function cancellationReasons(err: unknown): CancellationReason[] | undefined {
  if (err instanceof TransactionCanceledException) return (err.CancellationReasons ?? []) as CancellationReason[];
  return undefined;
}

/** A transaction lost a race with another one and can simply be tried again. */
export const isTransactionConflict = (reasons: CancellationReason[]) => reasons.some((r) => r.Code === 'TransactionConflict');

/**
 * The item a failed condition saw (ReturnValuesOnConditionCheckFailure). The document client
 * does not unmarshall cancellation reasons, so this does.
 */
export const itemSeen = (reason: CancellationReason | undefined) =>
  reason?.Item ? unmarshall(reason.Item as Record<string, AttributeValue>) : undefined;

/** Full-jitter exponential backoff: 10 ms base, 400 ms cap. */
export const backoff = (attempt: number) => sleep(Math.random() * Math.min(400, 10 * 2 ** attempt));

/** Ten writers racing on one item all finish: each round has one winner. */
export const MAX_ATTEMPTS = 12;

/**
 * Run a conditional write; undefined when its condition failed (the item is gone, or the
 * race was lost), which callers treat as an answer rather than an error.
 */
export async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return undefined;
    throw err;
  }
}
