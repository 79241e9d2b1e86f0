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
import { keys } from './table';
import { writeParts, type TxOutcome } from './tx';

export const scorecardPartition = (tenantId: string, candidateId: string) => `${keys.tenantPartition(tenantId)}#SC#${candidateId}`;
const latestKey = (tenantId: string, s: Pick<Scorecard, 'candidate_id' | 'interview_id' | 'interviewer_id'>) => ({
  PK: scorecardPartition(tenantId, s.candidate_id),
  SK: `SC#${s.interview_id}#${s.interviewer_id}`,
});
const versionKey = (tenantId: string, s: Scorecard) => ({
  PK: scorecardPartition(tenantId, s.candidate_id),
  SK: `SCV#${s.interview_id}#${s.interviewer_id}#${String(s.version).padStart(6, '0')}`,
});

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
        TableName: tableName,
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

export type ScorecardParts = 'candidate' | 'requisition' | 'interview' | 'latest' | 'version' | 'audit';

/**
 * A submission or an edit in one transaction: the candidate still there, not erased, and not placed
 * or rejected; the requisition not closed; the interview still scheduled; the latest version
 * replaced on condition it is the one read (none for a first submission); the version kept.
 */
export function writeScorecard(tenantId: string, s: Scorecard, audit: AuditEntry): Promise<TxOutcome<ScorecardParts>> {
  const body = { tenant_id: tenantId, ...s };
  return writeParts<ScorecardParts>({
    candidate: {
      ConditionCheck: {
        TableName: tableName,
        Key: keys.candidate(tenantId, s.candidate_id),
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(erased_at) AND NOT #st IN (:placed, :rejected)',
        ExpressionAttributeNames: { '#st': 'stage' },
        ExpressionAttributeValues: { ':placed': 'placed', ':rejected': 'rejected' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    requisition: s.req_id !== null && {
      ConditionCheck: {
        TableName: tableName,
        Key: keys.requisition(tenantId, s.req_id),
        ConditionExpression: '#st <> :closed',
        ExpressionAttributeNames: { '#st': 'status' },
        ExpressionAttributeValues: { ':closed': 'closed' },
      },
    },
    interview: {
      ConditionCheck: {
        TableName: tableName,
        Key: keys.interview(tenantId, s.interview_id),
        ConditionExpression: '#st = :scheduled',
        ExpressionAttributeNames: { '#st': 'status' },
        ExpressionAttributeValues: { ':scheduled': 'scheduled' },
      },
    },
    latest: {
      Put: {
        TableName: tableName,
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
        TableName: tableName,
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
        TableName: tableName,
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
            TableName: tableName,
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
