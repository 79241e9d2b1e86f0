/**
 * Interviews in the table: the interview item (`IV#<id>`) on three index views, all by start time
 * (the workspace's on GSI1, the candidate's on GSI2, the requisition's on GSI5); a booking per
 * interviewer in their own partition (`T#<t>#IVR#<user>`, a copy, so "my interviews" is one Query
 * and a conflict check a range of it); one change item per write (`IV#<id>#C#<seq>`, inserted,
 * the source of the interview events); the external event id's claim. No item holds a candidate's
 * personal data: ids, times, the step's name and the place.
 */
import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Interview } from '../api/interviews';
import { auditPuts, type AuditEntry } from './audit';
import { dueActions } from './interview-due';
import { movesProgress, progressUpdate, type ProgressDelta } from './interview-progress';
import { scorecardChecks } from './scorecards';
import { ddb, tableName } from './client';
import type { Item } from './codec';
import { keys, TABLE_DEF, type PageKeyShape } from './table';
import { writeParts, type TxOutcome } from './tx';

const { byStageOrStatus, byRequisitionOrUser, byRequisitionStage } = TABLE_DEF.indexes;
const t = (tenantId: string) => keys.tenantPartition(tenantId);
const sortKey = (iv: Interview) => `${iv.start}#${iv.id}`;
const SORT_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[0-9a-f-]{36}$/;

/** The list views: which partition of which index (none: the table) holds whose interviews. */
export type InterviewView =
  | { by: 'interviewer'; id: string }
  | { by: 'candidate'; id: string }
  | { by: 'requisition'; id: string }
  | { by: 'all' };

const viewIndex = (v: InterviewView) =>
  v.by === 'interviewer'
    ? undefined
    : v.by === 'candidate'
      ? byRequisitionOrUser
      : v.by === 'requisition'
        ? byRequisitionStage
        : byStageOrStatus;
const viewPartition = (tenantId: string, v: InterviewView) =>
  v.by === 'interviewer'
    ? keys.interviewerPartition(tenantId, v.id)
    : v.by === 'candidate'
      ? `${t(tenantId)}#IVC#${v.id}`
      : v.by === 'requisition'
        ? `${t(tenantId)}#IVQ#${v.id}`
        : `${t(tenantId)}#IVS`;

/** The page key of a view (lib/domain/cursor.ts checks a cursor against it). */
export function viewPageKey(tenantId: string, v: InterviewView): PageKeyShape {
  const index = viewIndex(v);
  if (!index) return { attrs: ['PK', 'SK'], partitions: { PK: viewPartition(tenantId, v) }, sortKey: SORT_KEY };
  return {
    attrs: ['PK', 'SK', index.partitionKey, index.sortKey],
    partitions: { [index.partitionKey]: viewPartition(tenantId, v), PK: t(tenantId) },
    sortKey: /^IV#[0-9a-f-]{36}$/,
  };
}

/** The interview item: the record, its keys and its three index entries. */
export function interviewItem(tenantId: string, iv: Interview): Item {
  const sk = sortKey(iv);
  return {
    ...keys.interview(tenantId, iv.id),
    type: 'interview',
    tenant_id: tenantId,
    ...iv,
    [byStageOrStatus.partitionKey]: viewPartition(tenantId, { by: 'all' }),
    [byStageOrStatus.sortKey]: sk,
    [byRequisitionOrUser.partitionKey]: viewPartition(tenantId, { by: 'candidate', id: iv.candidate_id }),
    [byRequisitionOrUser.sortKey]: sk,
    ...(iv.req_id && {
      [byRequisitionStage.partitionKey]: viewPartition(tenantId, { by: 'requisition', id: iv.req_id }),
      [byRequisitionStage.sortKey]: sk,
    }),
  };
}

const bookingKey = (tenantId: string, iv: Interview, userId: string) => keys.booking(tenantId, userId, iv.start, iv.id);
const bookingItem = (tenantId: string, iv: Interview, userId: string): Item => ({
  ...bookingKey(tenantId, iv, userId),
  type: 'interview_booking',
  tenant_id: tenantId,
  ...iv,
});

/** The fields of an interview as the table holds them, without keys and index entries. */
export function interviewFromItem(item: Item): Interview {
  return {
    id: String(item.id),
    candidate_id: String(item.candidate_id),
    req_id: typeof item.req_id === 'string' ? item.req_id : null,
    step_id: String(item.step_id),
    step_name: String(item.step_name),
    start: String(item.start),
    end: String(item.end),
    time_zone: String(item.time_zone),
    interviewers: Array.isArray(item.interviewers) ? item.interviewers.map(String) : [],
    location: typeof item.location === 'string' ? item.location : null,
    external_event_id: typeof item.external_event_id === 'string' ? item.external_event_id : null,
    status: item.status === 'cancelled' ? 'cancelled' : 'scheduled',
    sequence: typeof item.sequence === 'number' ? item.sequence : 0,
    invite_candidate: item.invite_candidate === true,
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
  };
}

export type InterviewEvent = 'interview.scheduled' | 'interview.updated' | 'interview.cancelled';

/**
 * The change item an event and the calendar invitations come from: ids, times, interviewer ids,
 * the step's name and the place (`dropped`: interviewers this change took off, who are sent a cancel).
 */
const changeItem = (tenantId: string, iv: Interview, event: InterviewEvent, dropped: readonly string[] = []): Item => ({
  ...keys.interviewChange(tenantId, iv.id, iv.sequence),
  type: 'interview_change',
  tenant_id: tenantId,
  event,
  interview_id: iv.id,
  candidate_id: iv.candidate_id,
  ...(iv.req_id && { req_id: iv.req_id }),
  step_id: iv.step_id,
  start: iv.start,
  end: iv.end,
  time_zone: iv.time_zone,
  interviewers: iv.interviewers,
  sequence: iv.sequence,
  status: iv.status,
  at: iv.updated_at,
  step_name: iv.step_name,
  ...(iv.location !== null && { location: iv.location }),
  invite_candidate: iv.invite_candidate,
  ...(dropped.length && { dropped_interviewers: [...dropped] }),
});

export const externalDigest = (externalId: string) => createHash('sha256').update(externalId).digest('hex');

/** One interview, read consistently; undefined when the workspace has none of that id. */
export async function getInterview(tenantId: string, id: string): Promise<Interview | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.interview(tenantId, id), ConsistentRead: true }));
  return Item && interviewFromItem(Item);
}

/** The interview an external event id was claimed by, if any. */
export async function getExternalClaim(tenantId: string, externalId: string): Promise<string | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.externalEvent(tenantId, externalDigest(externalId)), ConsistentRead: true }),
  );
  return typeof Item?.interview_id === 'string' ? Item.interview_id : undefined;
}

/**
 * An interviewer's bookings that start in [from, to): one consistent Query of their partition
 * (the conflict check reads from the longest interview's length before the new start).
 */
export async function queryBookings(tenantId: string, userId: string, from: string, to: string): Promise<Interview[]> {
  const out: Interview[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
        ExpressionAttributeValues: { ':pk': keys.interviewerPartition(tenantId, userId), ':lo': from, ':hi': to },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    out.push(...(page.Items ?? []).map(interviewFromItem));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}

/**
 * One page of a view by start time, `from` (inclusive) to `to` (exclusive), with the other filters
 * as a FilterExpression: one Query.
 */
export async function queryInterviewPage(
  tenantId: string,
  view: InterviewView,
  q: { from?: string; to?: string; candidate?: string; requisition?: string; limit: number; startKey?: Record<string, unknown> },
): Promise<{ items: Interview[]; lastKey?: Record<string, unknown> }> {
  const index = viewIndex(view);
  const pk = index ? index.partitionKey : 'PK';
  const sk = index ? index.sortKey : 'SK';
  const values: Record<string, unknown> = { ':pk': viewPartition(tenantId, view) };
  // The sort key is `<start>#<id>`: `<from>` sorts before every key that starts then, and so does `<to>`.
  const range = q.from && q.to ? ' AND #sk BETWEEN :lo AND :hi' : q.from ? ' AND #sk >= :lo' : q.to ? ' AND #sk < :hi' : '';
  if (q.from) values[':lo'] = q.from;
  if (q.to) values[':hi'] = q.to;
  const filters: string[] = [];
  if (q.candidate && view.by !== 'candidate') {
    filters.push('candidate_id = :cand');
    values[':cand'] = q.candidate;
  }
  if (q.requisition && view.by !== 'requisition') {
    filters.push('req_id = :req');
    values[':req'] = q.requisition;
  }
  const input: QueryCommandInput = {
    TableName: tableName(),
    ...(index && { IndexName: index.name }),
    KeyConditionExpression: `#pk = :pk${range}`,
    ExpressionAttributeNames: { '#pk': pk, ...(range && { '#sk': sk }) },
    ExpressionAttributeValues: values,
    ...(filters.length && { FilterExpression: filters.join(' AND ') }),
    Limit: q.limit,
    ...(q.startKey && { ExclusiveStartKey: q.startKey }),
  };
  const page = await ddb.send(new QueryCommand(input));
  return { items: (page.Items ?? []).map(interviewFromItem), lastKey: page.LastEvaluatedKey };
}

export type CreateParts = 'candidate' | 'external' | 'interview' | 'bookings' | 'due' | 'change' | 'audit';

/**
 * Schedule: the candidate still there, the external id's claim (refused when another interview
 * holds it: the refusal's item names it), the interview, a booking per interviewer, its due items
 * (lib/store/interview-due.ts), its change item and the audit intent, in one transaction.
 */
export function writeInterviewCreate(tenantId: string, iv: Interview, audit: AuditEntry): Promise<TxOutcome<CreateParts>> {
  return writeParts<CreateParts>({
    // One interview more in the candidate's progress, each interviewer a scorecard expected.
    candidate: progressUpdate(
      tenantId,
      iv.candidate_id,
      { interviews: 1, expected: iv.interviewers.length, scorecards: 0 },
      { expression: 'attribute_exists(PK) AND attribute_not_exists(erased_at)' },
    ),
    external: iv.external_event_id !== null && {
      Put: {
        TableName: tableName(),
        Item: { ...keys.externalEvent(tenantId, externalDigest(iv.external_event_id)), type: 'interview_external', interview_id: iv.id },
        ConditionExpression: 'attribute_not_exists(PK)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    interview: { Put: { TableName: tableName(), Item: interviewItem(tenantId, iv), ConditionExpression: 'attribute_not_exists(PK)' } },
    bookings: iv.interviewers.map((u) => ({ Put: { TableName: tableName(), Item: bookingItem(tenantId, iv, u) } })),
    due: dueActions(tenantId, undefined, iv),
    change: { Put: { TableName: tableName(), Item: changeItem(tenantId, iv, 'interview.scheduled') } },
    audit: auditPuts(tenantId, audit),
  });
}

/** Interviewers the change took off the interview: their calendars are sent a cancel. */
const droppedBy = (before: Interview, after: Interview) => before.interviewers.filter((u) => !after.interviewers.includes(u));

export type ChangeParts = 'interview' | 'scorecards' | 'candidate' | 'bookings' | 'due' | 'change' | 'audit';

/** What a change moves in the candidate's interview progress, and whose scorecard it read as there or missing. */
export interface ProgressWrite {
  delta: ProgressDelta;
  changed: readonly string[];
  submitted: ReadonlySet<string>;
}

/**
 * Reschedule or cancel: the interview on condition it is at the sequence read and still scheduled;
 * the bookings it no longer has deleted, those it has put (none once cancelled); its due items
 * moved to its new times (removed once cancelled); its change item; the candidate's interview
 * progress, on condition that the scorecards of the interviewers it counts in or out are as read.
 */
export function writeInterviewChange(
  tenantId: string,
  before: Interview,
  after: Interview,
  event: InterviewEvent,
  audit: AuditEntry,
  progress?: ProgressWrite,
): Promise<TxOutcome<ChangeParts>> {
  const kept = after.status === 'scheduled' ? after.interviewers.map((u) => bookingItem(tenantId, after, u)) : [];
  const keptKeys = new Set(kept.map((i) => `${i.PK}|${i.SK}`));
  const gone = before.interviewers.map((u) => bookingKey(tenantId, before, u)).filter((k) => !keptKeys.has(`${k.PK}|${k.SK}`));
  return writeParts<ChangeParts>({
    interview: {
      Put: {
        TableName: tableName(),
        Item: interviewItem(tenantId, after),
        ConditionExpression: '#seq = :seq AND #st = :scheduled',
        ExpressionAttributeNames: { '#seq': 'sequence', '#st': 'status' },
        ExpressionAttributeValues: { ':seq': before.sequence, ':scheduled': 'scheduled' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    // Checked even when the counts do not move: a swap of two interviewers without scorecards
    // is one only while neither writes one.
    scorecards: progress !== undefined && scorecardChecks(tenantId, after, progress.changed, progress.submitted),
    candidate:
      progress !== undefined &&
      movesProgress(progress.delta) &&
      progressUpdate(tenantId, after.candidate_id, progress.delta, { expression: 'attribute_exists(PK)' }),
    bookings: [
      ...gone.map((Key) => ({ Delete: { TableName: tableName(), Key } })),
      ...kept.map((Item) => ({ Put: { TableName: tableName(), Item } })),
    ],
    due: dueActions(tenantId, before, after),
    change: {
      Put: {
        TableName: tableName(),
        Item: changeItem(tenantId, after, event, droppedBy(before, after)),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    audit: auditPuts(tenantId, audit),
  });
}
