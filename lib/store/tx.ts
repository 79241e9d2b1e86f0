/** Optimistic-concurrency helpers: writes that race use condition expressions and retry. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';

export type CancellationReason = { Code?: string; Item?: Record<string, unknown> };

/** Cancellation reasons of a transaction, one per action, or undefined for other errors. */
export function cancellationReasons(err: unknown): CancellationReason[] | undefined {
  if (err instanceof TransactionCanceledException) return (err.CancellationReasons ?? []) as CancellationReason[];
  return undefined;
}

/** A transaction lost a race with another one and can simply be tried again. */
export const isTransactionConflict = (reasons: CancellationReason[]) =>
  reasons.some((r) => r.Code === 'TransactionConflict');

/** Full-jitter exponential backoff: 10 ms base, 400 ms cap. */
export const backoff = (attempt: number) =>
  sleep(Math.random() * Math.min(400, 10 * 2 ** attempt));

export const MAX_ATTEMPTS = 8;
