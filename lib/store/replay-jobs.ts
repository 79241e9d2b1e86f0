/**
 * Replay jobs: an endpoint's latest replay, one item per endpoint in the webhook partition
 * (`REPLAY#<webhookId>`), so "one running job per endpoint" is one condition.
 */
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { auditPuts, type AuditEntry } from './audit';
import { newId, nowIso } from '../ids';
import { ddb, prefixQuery, queryAll, tableName } from './client';
import { bool, type Item, num, oneOf, optStr, str } from './codec';
import { keys, TABLE_DEF } from './table';
import { cancellationReasons, unlessConditionFails } from './tx';
import { $add, update } from './update';
import { ATTEMPT_TTL_S } from './webhook-attempts';

export const REPLAY_STATUSES = ['running', 'done', 'failed'] as const;

export interface ReplayJobItem {
  id: string;
  webhook_id: string;
  since: string;
  status: (typeof REPLAY_STATUSES)[number];
  queued: number;
  sent: number;
  /** Replayed deliveries finished (accepted or given up). */
  finished: number;
  /** Index into the job's list of missed events up to which they are queued. */
  position: number;
  scan_done: boolean;
  created_at: string;
  updated_at: string;
  error?: string;
}

const ENTITY = 'webhook_replay';

/** The replay job item's codec. Counters are written by ADD, so a new job may lack them. */
export const replayJobFromItem = (i: Item): ReplayJobItem => {
  const error = optStr(i, 'error', ENTITY);
  return {
    id: str(i, 'id', ENTITY),
    webhook_id: str(i, 'webhook_id', ENTITY),
    since: str(i, 'since', ENTITY),
    status: oneOf(i, 'status', REPLAY_STATUSES, ENTITY),
    queued: num(i, 'queued', ENTITY, 0),
    sent: num(i, 'sent', ENTITY, 0),
    finished: num(i, 'finished', ENTITY, 0),
    position: num(i, 'position', ENTITY, 0),
    scan_done: bool(i, 'scan_done', ENTITY, false),
    created_at: str(i, 'created_at', ENTITY),
    updated_at: str(i, 'updated_at', ENTITY),
    ...(error && { error }),
  };
};

/** Every endpoint's latest replay job in a workspace: one small item per endpoint, one Query. */
export async function listReplayJobs(tenantId: string): Promise<ReplayJobItem[]> {
  return (await queryAll(prefixQuery(keys.webhookPartition(tenantId), keys.replayPrefix))).map(replayJobFromItem);
}

export async function getReplayJob(tenantId: string, webhookId: string): Promise<ReplayJobItem | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.replay(tenantId, webhookId), ConsistentRead: true }));
  return Item ? replayJobFromItem(Item) : undefined;
}

/**
 * Start a job unless one runs: the condition makes two concurrent requests start one job. A
 * running job not touched for `staleMs` (its worker lost) no longer blocks a new one.
 * Returns the new job, or undefined when one runs.
 */
export async function startReplayJob(
  tenantId: string,
  webhookId: string,
  since: string,
  staleMs: number,
  audit?: AuditEntry,
): Promise<ReplayJobItem | undefined> {
  const now = nowIso();
  const job: ReplayJobItem = {
    id: newId(),
    webhook_id: webhookId,
    since,
    status: 'running',
    queued: 0,
    sent: 0,
    finished: 0,
    position: 0,
    scan_done: false,
    created_at: now,
    updated_at: now,
  };
  const put = {
    TableName: tableName(),
    Item: {
      ...keys.replay(tenantId, webhookId),
      type: 'webhook_replay',
      ...job,
      [TABLE_DEF.ttlAttribute]: Math.floor(Date.now() / 1000) + ATTEMPT_TTL_S,
    },
    ConditionExpression: 'attribute_not_exists(PK) OR #s <> :running OR updated_at < :stale',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':running': 'running', ':stale': new Date(Date.now() - staleMs).toISOString() },
  };
  // With its audit record, one transaction: a job that does not start leaves no record.
  const res = audit
    ? await ddb.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, ...auditPuts(tenantId, audit)] })).then(
        () => true,
        (err) => {
          if (cancellationReasons(err)?.[0]?.Code === 'ConditionalCheckFailed') return undefined;
          throw err;
        },
      )
    : await unlessConditionFails(ddb.send(new PutCommand(put)));
  return res ? job : undefined;
}

/** Move a job's counters; only the job `jobId` (a newer job replaces the item). */
export async function updateReplayJob(
  tenantId: string,
  webhookId: string,
  jobId: string,
  change: { queued?: number; sent?: number; finished?: number; position?: number; scanDone?: boolean; failed?: string },
): Promise<ReplayJobItem | undefined> {
  // A zero count is no change: leave it out rather than ADD 0.
  const count = (n: number | undefined) => (n ? $add(n) : undefined);
  const res = await unlessConditionFails(
    ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.replay(tenantId, webhookId),
        ...update(
          {
            updated_at: nowIso(),
            position: change.position,
            ...(change.scanDone && { scan_done: true }),
            ...(change.failed && { status: 'failed', error: change.failed }),
            queued: count(change.queued),
            sent: count(change.sent),
            finished: count(change.finished),
          },
          { expression: 'id = :id', values: { ':id': jobId } },
        ),
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  const job = res?.Attributes ? replayJobFromItem(res.Attributes) : undefined;
  // Done once every missed event is queued and every queued delivery finished. Both the worker
  // (after its scan) and the last delivery can see that; the condition lets one of them say it.
  if (job && job.status === 'running' && job.scan_done && job.finished >= job.queued) {
    await unlessConditionFails(
      ddb.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.replay(tenantId, webhookId),
          UpdateExpression: 'SET #s = :done, updated_at = :now',
          ConditionExpression: 'id = :id AND #s = :running',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':done': 'done', ':running': 'running', ':now': nowIso(), ':id': jobId },
        }),
      ),
    );
    job.status = 'done';
  }
  return job;
}
