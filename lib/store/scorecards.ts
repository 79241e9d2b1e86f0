/**
 * Scorecards in the table: one partition per candidate (`T#<t>#SC#<candidate>`), so the blind rule
 * reads every scorecard of the candidate with one Query. The latest version of each interviewer's
 * scorecard of an interview is `SC#<interview>#<user>`; every version, the first included, is kept
 * as `SCV#<interview>#<user>#<version>`. Their text (ratings, answers, note) is personal data: the
 * candidate's erasure reaches the partition.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scorecard } from '../api/scorecards';
import { auditPuts, type AuditEntry } from './audit';
import { ddb, tableName } from './client';
import type { Item } from './codec';
import { progressUpdate } from './interview-progress';
import { keys } from './table';
import { writeParts, type TxOutcome } from './tx';

export const scorecardPartition = (tenantId: string, candidateId: string) => `${keys.tenantPartition(tenantId)}#SC#${candidateId}`;
export const latestKey = (tenantId: string, s: Pick<Scorecard, 'candidate_id' | 'interview_id' | 'interviewer_id'>) => ({
  PK: scorecardPartition(tenantId, s.candidate_id),
  SK: `SC#${s.interview_id}#${s.interviewer_id}`,
});
const versionKey = (tenantId: string, s: Scorecard) => ({
  PK: scorecardPartition(tenantId, s.candidate_id),
  SK: `SCV#${s.interview_id}#${s.interviewer_id}#${String(s.version).padStart(6, '0')}`,
});

/**
 * For a change of an interview's panel or its cancel (lib/store/interviews.ts): a check, per
 * interviewer whose place changes, that their scorecard is still there or still missing as read,
 * so a scorecard written meanwhile refuses the change (decided again) instead of leaving the
 * candidate's `sc_submitted` (lib/store/interview-progress.ts) off by one.
 */
export function scorecardChecks(
  tenantId: string,
  iv: { id: string; candidate_id: string },
  changed: readonly string[],
  submitted: ReadonlySet<string>,
) {
  return changed.map((u) => ({
    ConditionCheck: {
      TableName: tableName(),
      Key: latestKey(tenantId, { candidate_id: iv.candidate_id, interview_id: iv.id, interviewer_id: u }),
      ConditionExpression: submitted.has(u) ? 'attribute_exists(PK)' : 'attribute_not_exists(PK)',
    },
  }));
}

/** Who has a scorecard of the interview, among a candidate's scorecards. */
export const submittedOn = (cards: readonly Pick<Scorecard, 'interview_id' | 'interviewer_id'>[], interviewId: string) =>
  new Set(cards.filter((s) => s.interview_id === interviewId).map((s) => s.interviewer_id));

export function scorecardFromItem(item: Item): Scorecard {
  const list = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);
  return {
    id: String(item.id),
    interview_id: String(item.interview_id),
    candidate_id: String(item.candidate_id),
    req_id: typeof item.req_id === 'string' ? item.req_id : null,
    step_id: String(item.step_id),
    interviewer_id: String(item.interviewer_id),
    overall: item.overall as Scorecard['overall'],
    ratings: list<Scorecard['ratings'][number]>(item.ratings),
    answers: list<Scorecard['answers'][number]>(item.answers),
    note: typeof item.note === 'string' ? item.note : null,
    version: typeof item.version === 'number' ? item.version : 1,
    submitted_at: String(item.submitted_at),
    updated_at: String(item.updated_at),
  };
}

/** The latest versions of every scorecard of a candidate: one consistent Query (a candidate has a bounded number). */
export async function queryCandidateScorecards(tenantId: string, candidateId: string): Promise<Scorecard[]> {
  const out: Scorecard[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sc)',
        ExpressionAttributeValues: { ':pk': scorecardPartition(tenantId, candidateId), ':sc': 'SC#' },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    out.push(...(page.Items ?? []).map(scorecardFromItem));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}

/** What a scorecard needs of its candidate: there, not erased, not placed or rejected. */
const candidateOk = {
  expression: 'attribute_exists(PK) AND attribute_not_exists(erased_at) AND NOT #st IN (:placed, :rejected)',
  names: { '#st': 'stage' },
  values: { ':placed': 'placed', ':rejected': 'rejected' },
};

export type ScorecardParts = 'candidate' | 'requisition' | 'interview' | 'latest' | 'version' | 'audit';

/**
 * A submission or an edit in one transaction: the candidate still there, not erased, and not placed
 * or rejected (its interview progress counting a first version); the requisition not closed; the
 * interview still scheduled with the writer on its panel; the latest version
 * replaced on condition it is the one read (none for a first submission); the version kept.
 */
export function writeScorecard(tenantId: string, s: Scorecard, audit: AuditEntry): Promise<TxOutcome<ScorecardParts>> {
  const body = { tenant_id: tenantId, ...s };
  return writeParts<ScorecardParts>({
    // The candidate as it must be; a first version is one more scorecard in its interview progress, an edit is not.
    candidate:
      s.version === 1
        ? {
            Update: {
              ...progressUpdate(tenantId, s.candidate_id, { interviews: 0, expected: 0, scorecards: 1 }, candidateOk).Update,
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          }
        : {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.candidate(tenantId, s.candidate_id),
              ConditionExpression: candidateOk.expression,
              ExpressionAttributeNames: candidateOk.names,
              ExpressionAttributeValues: candidateOk.values,
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
    requisition: s.req_id !== null && {
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.requisition(tenantId, s.req_id),
        ConditionExpression: '#st <> :closed',
        ExpressionAttributeNames: { '#st': 'status' },
        ExpressionAttributeValues: { ':closed': 'closed' },
      },
    },
    // Still on the panel: a change of panel counts the scorecards of those it keeps.
    interview: {
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.interview(tenantId, s.interview_id),
        ConditionExpression: '#st = :scheduled AND contains(#ivs, :writer)',
        ExpressionAttributeNames: { '#st': 'status', '#ivs': 'interviewers' },
        ExpressionAttributeValues: { ':scheduled': 'scheduled', ':writer': s.interviewer_id },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    latest: {
      Put: {
        TableName: tableName(),
        Item: { ...latestKey(tenantId, s), type: 'scorecard', ...body },
        ...(s.version === 1
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : {
              ConditionExpression: '#v = :prev',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':prev': s.version - 1 },
            }),
      },
    },
    version: {
      Put: {
        TableName: tableName(),
        Item: { ...versionKey(tenantId, s), type: 'scorecard_version', ...body },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    audit: auditPuts(tenantId, audit),
  });
}

/**
 * Erasure: every version of every scorecard of the candidate loses its text (ratings, answers,
 * note); ids, `overall` and times stay. Run after the candidate is marked erased, so no submission
 * lands after it (each checks the mark). The count of items scrubbed.
 */
export async function scrubScorecards(tenantId: string, candidateId: string, erasedAt: string): Promise<number> {
  let scrubbed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        FilterExpression: 'attribute_not_exists(erased_at)',
        ExpressionAttributeValues: { ':pk': scorecardPartition(tenantId, candidateId) },
        ProjectionExpression: 'PK, SK',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const key of page.Items ?? []) {
      try {
        await ddb.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { PK: key.PK, SK: key.SK },
            UpdateExpression: 'REMOVE ratings, answers, note SET erased_at = :at',
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(erased_at)',
            ExpressionAttributeValues: { ':at': erasedAt },
          }),
        );
        scrubbed++;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return scrubbed;
}
