/**
 * The interviews' due index: a partition of the whole table (`INTERVIEW_DUE`), sorted by when each
 * item is due, so the follow-up runs (lib/domain/interview-moves.ts, interview-reminders.ts) find every
 * due one with one Query and no Scan. Each scheduled interview has two items, written, moved and removed in the
 * interview's own transactions (lib/store/interviews.ts): `ended` at its end (the candidate may
 * move to `interviewed`) and `remind` at the earliest its reminder can be due in any zone
 * (missing scorecards: the run reads each interviewer's own zone then, and puts a `remind` of its
 * own, `rearmReminder`, for those whose 9:00 is still to come); a cancel replaces them with one
 * `ended` at the cancel. The keys derive from the interview (its end, status and change time), so
 * a reschedule or a cancel deletes the old ones by key; a run's own item carries the end it was
 * put for and is dropped once the interview has another. Ids only, no personal data; an item the
 * run never reaches leaves by TTL a week after it was due.
 * The reminder's sent marker (`IV#<id>#REMINDED#<user>`, in the workspace's partition) makes a
 * reminder at most once.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Interview } from '../api/interviews';
import { earliestReminderAt } from '../reminder-time';
import { ddb, queryUpTo, tableName } from './client';
import { keys, TABLE_DEF, type Key } from './table';

const DUE_PARTITION = 'INTERVIEW_DUE';
const DUE_TTL_S = 7 * 86_400;
export type DueKind = 'ended' | 'remind';

const epochS = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const dueKey = (dueAt: string, kind: DueKind, tenantId: string, interviewId: string): Key => ({
  PK: DUE_PARTITION,
  SK: `${dueAt}#${kind}#${tenantId}#${interviewId}`,
});

/**
 * The due items of an interview: while scheduled, `ended` at its end and `remind` at its reminder
 * time; once cancelled, one `ended` at the cancel, as the cancel may leave the candidate's other
 * interviews all ended.
 */
function dueItems(tenantId: string, iv: Interview): Record<string, unknown>[] {
  const due: (readonly [DueKind, string])[] =
    iv.status === 'scheduled'
      ? [
          ['ended', iv.end],
          ['remind', earliestReminderAt(iv.end)],
        ]
      : [['ended', iv.updated_at]];
  return due.map(([kind, dueAt]) => ({
    ...dueKey(dueAt, kind, tenantId, iv.id),
    type: 'interview_due',
    kind,
    tenant_id: tenantId,
    interview_id: iv.id,
    due_at: dueAt,
    [TABLE_DEF.ttlAttribute]: epochS(dueAt) + DUE_TTL_S,
  }));
}

/**
 * The due index's actions of an interview's write, `before` (none for a new one) to `after`: the
 * items whose keys change are deleted and put again; unchanged ones are left alone.
 */
export function dueActions(tenantId: string, before: Interview | undefined, after: Interview): Record<string, unknown>[] {
  const old = before ? dueItems(tenantId, before) : [];
  const now = dueItems(tenantId, after);
  const id = (i: Record<string, unknown>) => String(i.SK);
  const oldIds = new Set(old.map(id));
  const nowIds = new Set(now.map(id));
  return [
    ...old.filter((i) => !nowIds.has(id(i))).map((i) => ({ Delete: { TableName: tableName(), Key: { PK: i.PK, SK: i.SK } } })),
    ...now.filter((i) => !oldIds.has(id(i))).map((Item) => ({ Put: { TableName: tableName(), Item } })),
  ];
}

export interface DueItem {
  sk: string;
  kind: DueKind;
  tenantId: string;
  interviewId: string;
  dueAt: string;
  /** On a run's own `remind` (rearmReminder): the interview's end it was put for. */
  end?: string;
}

/**
 * Items of one kind due at `nowIso`, oldest first, at most `limit`: one Query of the partition,
 * filtered by kind (each kind has its own run; the other's items are few, as each run deletes what
 * it handled).
 */
export async function dueInterviewItems(nowIso: string, kind: DueKind, limit: number): Promise<DueItem[]> {
  const items = await queryUpTo(
    {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK < :upto',
      FilterExpression: '#kind = :kind',
      ExpressionAttributeNames: { '#kind': 'kind' },
      ExpressionAttributeValues: { ':pk': DUE_PARTITION, ':upto': `${nowIso}#~`, ':kind': kind },
      ConsistentRead: true,
    },
    limit,
  );
  return items.map((i) => ({
    sk: String(i.SK),
    kind: i.kind === 'remind' ? 'remind' : 'ended',
    tenantId: String(i.tenant_id),
    interviewId: String(i.interview_id),
    dueAt: String(i.due_at),
    ...(typeof i.end === 'string' && { end: i.end }),
  }));
}

/**
 * The reminders of an interview (ending at `end`) come back at `dueAt`, for the interviewers whose
 * 9:00 was still to come when its item was handled.
 */
export async function rearmReminder(tenantId: string, interviewId: string, end: string, dueAt: string): Promise<void> {
  await ddb.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...dueKey(dueAt, 'remind', tenantId, interviewId),
        type: 'interview_due',
        kind: 'remind',
        tenant_id: tenantId,
        interview_id: interviewId,
        due_at: dueAt,
        end,
        [TABLE_DEF.ttlAttribute]: epochS(dueAt) + DUE_TTL_S,
      },
    }),
  );
}

/** A due item handled: it goes. */
export async function dueDone(sk: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: { PK: DUE_PARTITION, SK: sk } }));
}

const reminderKey = (tenantId: string, interviewId: string, userId: string): Key => ({
  PK: keys.tenantPartition(tenantId),
  SK: `IV#${interviewId}#REMINDED#${userId}`,
});

/** Claim an interviewer's reminder of an interview: false when it was claimed before (sent, or being sent). */
export async function claimReminder(tenantId: string, interviewId: string, userId: string, at: string): Promise<boolean> {
  try {
    await ddb.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...reminderKey(tenantId, interviewId, userId), type: 'interview_reminder', interview_id: interviewId, user_id: userId, at },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Give a claim back when its mail could not be sent, so a later run sends it. */
export async function releaseReminder(tenantId: string, interviewId: string, userId: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: reminderKey(tenantId, interviewId, userId) }));
}
