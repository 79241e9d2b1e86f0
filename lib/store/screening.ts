/**
 * Screening's items: the candidate's `screening` attribute (lib/domain/screening-rules.ts
 * ScreeningState, JSON) and the due rejections, a global partition ordered by due time
 * (keys.screeningRejection) written in the candidate's create transaction, so the scheduled run
 * finds every due one with one Query and never scans. A due item holds ids and a time only.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ApplicationAnswer, Screening } from '../api/screening';
import type { ScreeningState } from '../domain/screening-rules';
import { auditGroupPuts, type AuditEntry } from './audit';
import { ddb, queryUpTo, tableName } from './client';
import type { Item } from './codec';
import { keys } from './table';

/** The Put of a due rejection, for the candidate's create transaction. */
export function screeningDuePut(tenantId: string, candidateId: string, dueAt: string) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.screeningRejection(tenantId, candidateId, dueAt),
        type: 'screening_due',
        tenant_id: tenantId,
        candidate_id: candidateId,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The screening a candidate item keeps, or undefined for one never screened (or erased). */
export function screeningOf(item: Item | undefined): ScreeningState | undefined {
  const raw = item?.screening;
  if (typeof raw !== 'string') return undefined;
  return JSON.parse(raw) as ScreeningState;
}

/** A screening as answered (GET /candidates/{id}, the overturn): none for a candidate never screened. */
export function screeningAnswer(s: ScreeningState | undefined): Screening | null {
  if (!s) return null;
  return {
    result: s.result,
    action: s.action,
    reasons: s.reasons,
    flagged: s.flagged,
    reject_at: s.reject_at ?? null,
    rejected_at: s.rejected_at ?? null,
    overturned_at: s.overturned_at ?? null,
    screened_at: s.screened_at,
  };
}

/** An application's answers and consent as answered: none for a candidate that did not apply (or was erased). */
export function applicationAnswer(item: Item | undefined): ApplicationAnswer | null {
  const raw = item?.application;
  if (typeof raw !== 'string') return null;
  const a = JSON.parse(raw) as Partial<ApplicationAnswer>;
  return { answers: a.answers ?? {}, consent: a.consent ?? { accepted: true, text: '', version: '' }, received_at: String(a.received_at) };
}

export interface DueRejection {
  tenantId: string;
  candidateId: string;
  dueAt: string;
  sk: string;
}

/** Rejections due at `nowIso`, oldest first, at most `limit`: one Query of their partition. */
export async function dueScreeningRejections(nowIso: string, limit: number): Promise<DueRejection[]> {
  const items = await queryUpTo(
    {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK < :upto',
      ExpressionAttributeValues: { ':pk': keys.screeningRejectionPartition(), ':upto': `${nowIso}#~` },
      ConsistentRead: true,
    },
    limit,
  );
  return items.map((i) => {
    const sk = String(i.SK);
    return { tenantId: String(i.tenant_id), candidateId: String(i.candidate_id), dueAt: sk.slice(0, sk.indexOf('#')), sk };
  });
}

/** A due rejection done with (run, overturned, or moot): its item goes. */
export async function screeningDueDone(sk: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: { PK: keys.screeningRejectionPartition(), SK: sk } }));
}

/**
 * A screening changed (a rejection run, a decision overturned): the candidate's `screening` set,
 * conditioned on the one read (a concurrent change makes it false: the caller reads again), with
 * its due item deleted and its audit records, in one transaction. False when the condition failed.
 */
export async function writeScreening(
  tenantId: string,
  candidateId: string,
  seen: string,
  next: ScreeningState,
  opts: { dueAt?: string; audits?: AuditEntry[] },
): Promise<boolean> {
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.candidate(tenantId, candidateId),
              UpdateExpression: 'SET screening = :next',
              ConditionExpression: 'screening = :seen AND attribute_not_exists(erased_at)',
              ExpressionAttributeValues: { ':next': JSON.stringify(next), ':seen': seen },
            },
          },
          ...(opts.dueAt ? [{ Delete: { TableName: tableName(), Key: keys.screeningRejection(tenantId, candidateId, opts.dueAt) } }] : []),
          ...auditGroupPuts(tenantId, opts.audits ?? []),
        ],
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException || (err as Error).name === 'TransactionCanceledException') return false;
    throw err;
  }
}
