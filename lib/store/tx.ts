/** Optimistic-concurrency helpers: writes that race use condition expressions and retry. */
import { ConditionalCheckFailedException, TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { ddb } from './client';

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

/** The most actions DynamoDB takes in one transaction. */
export const MAX_TRANSACT_ACTIONS = 100;

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

/** One named part of a transaction: none, one or several of its actions. */
export type TxPart = Record<string, unknown> | readonly Record<string, unknown>[] | undefined | false;

/**
 * What a transaction of named parts did: written; refused by the first part (in the order the
 * parts were given) whose condition failed, with the item that condition saw when the part asked
 * for it (ReturnValuesOnConditionCheckFailure) and every refusing part in `all`; or lost to a
 * concurrent transaction (nothing refused, try again).
 */
export type TxOutcome<N extends string> =
  | { written: true }
  | { refused: N; seen: Record<string, unknown> | undefined; all: Partial<Record<N, Record<string, unknown> | undefined>> }
  | { conflict: true };

/** The written outcome, for writes that do not go through writeParts (nothing to write). */
export const WRITTEN = { written: true } as const;

/**
 * Write the parts in one TransactWriteItems and say what happened by part name, never by an
 * action's position. The order of the parts is the order the refusals are reported in.
 */
export async function writeParts<N extends string>(parts: Record<N, TxPart>): Promise<TxOutcome<N>> {
  const names: N[] = [];
  const actions: Record<string, unknown>[] = [];
  for (const [name, part] of Object.entries(parts) as [N, TxPart][]) {
    if (!part) continue;
    for (const action of Array.isArray(part) ? part : [part]) {
      names.push(name);
      actions.push(action as Record<string, unknown>);
    }
  }
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: actions as never }));
    return WRITTEN;
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (!reasons) throw err;
    const all: Partial<Record<N, Record<string, unknown> | undefined>> = {};
    reasons.forEach((r, i) => {
      const name = names[i];
      if (name !== undefined && r.Code === 'ConditionalCheckFailed' && !(name in all)) all[name] = itemSeen(r);
    });
    const first = (Object.keys(parts) as N[]).find((n) => n in all);
    if (first !== undefined) return { refused: first, seen: all[first], all };
    if (isTransactionConflict(reasons)) return { conflict: true };
    throw err;
  }
}
