/**
 * `npm start` keeps its SQS in memory. So that a restart loses no delivery, the local pipeline
 * (not the deployed stack, where SQS keeps messages) puts back at start what the old queue held:
 * - retries that were scheduled: the table knows them. Each (endpoint, event, series) whose last
 *   recorded attempt failed with a `next_attempt_at` and was not dead-lettered is queued again,
 *   delayed until that time (at most 15 minutes, SQS's limit: a later retry comes early), with
 *   the attempts made so far so the numbering goes on;
 * - replay jobs still scanning: their work item is queued again (they resume from their position);
 * - deliveries not attempted yet: `stop()` saved them to DATA_DIR/pending-deliveries.json.
 * A Scan is fine here: it runs once at local start, never on a request path.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localClient } from './table';

const MAX_DELAY_S = 900;

interface Attempt {
  PK: string;
  SK: string;
  event_id: string;
  event_type: string;
  attempt: number;
  success: boolean;
  next_attempt_at?: string | null;
  dead_lettered?: boolean;
  series?: string;
}

/** What to queue again; exported for the test of the grouping. */
export function pendingRetries(attempts: Attempt[]): Attempt[] {
  const latest = new Map<string, Attempt>();
  for (const a of attempts) {
    const endpoint = a.SK.split('#')[1];
    const key = `${a.PK}|${endpoint}|${a.event_id}|${a.series ?? ''}`;
    const seen = latest.get(key);
    // Attempt ids are UUIDv7: the greater sort key is the later attempt.
    if (!seen || seen.SK < a.SK) latest.set(key, a);
  }
  return [...latest.values()].filter((a) => !a.success && typeof a.next_attempt_at === 'string' && !a.dead_lettered);
}

async function scanAll(doc: DynamoDBDocumentClient, tableName: string, types: string[]) {
  // biome-ignore lint/suspicious/noExplicitAny: raw items of several entities, narrowed by each caller
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: `#t IN (${types.map((_, i) => `:t${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: Object.fromEntries(types.map((t, i) => [`:t${i}`, t])),
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Put back what a previous run left; returns counts for the start banner. */
export async function restorePending(opts: {
  endpoint: string;
  tableName: string;
  sqs: SQSClient;
  queueUrl: string;
  savedFile?: string;
}): Promise<{ retries: number; replays: number; saved: number }> {
  const doc = DynamoDBDocumentClient.from(localClient(opts.endpoint));
  const send = (body: unknown, delayS = 0) =>
    opts.sqs.send(new SendMessageCommand({ QueueUrl: opts.queueUrl, MessageBody: JSON.stringify(body), DelaySeconds: delayS }));
  const items = await scanAll(doc, opts.tableName, ['webhook_attempt', 'webhook_replay', 'webhook_event']);
  const bodies = new Map(items.filter((i) => i.type === 'webhook_event').map((i) => [`${i.PK}|${i.event_id}`, i.body as string]));

  let retries = 0;
  for (const a of pendingRetries(items.filter((i) => i.type === 'webhook_attempt') as Attempt[])) {
    const body = bodies.get(`${a.PK}|${a.event_id}`);
    if (body === undefined) continue; // expired: nothing to send
    const tenantId = a.PK.slice(2, a.PK.lastIndexOf('#'));
    const delay = Math.min(MAX_DELAY_S, Math.max(0, Math.ceil((Date.parse(a.next_attempt_at!) - Date.now()) / 1000)));
    await send(
      {
        v: 1,
        eventId: a.event_id,
        eventType: a.event_type,
        tenantId,
        endpointId: a.SK.split('#')[1],
        body,
        ...(a.series && { series: a.series }),
        ...(a.series?.startsWith('replay:') && { replayJob: a.series.slice('replay:'.length) }),
        attemptsBefore: a.attempt,
        kept: true,
      },
      delay,
    );
    retries++;
  }

  let replays = 0;
  for (const j of items.filter((i) => i.type === 'webhook_replay' && i.status === 'running' && !i.scan_done)) {
    await send({
      v: 1,
      kind: 'replay',
      tenantId: String(j.PK).slice(2, String(j.PK).lastIndexOf('#')),
      endpointId: j.webhook_id,
      jobId: j.id,
    });
    replays++;
  }

  let saved = 0;
  if (opts.savedFile && existsSync(opts.savedFile)) {
    const messages = JSON.parse(readFileSync(opts.savedFile, 'utf8')) as string[];
    for (const m of messages) {
      await opts.sqs.send(new SendMessageCommand({ QueueUrl: opts.queueUrl, MessageBody: m }));
      saved++;
    }
    rmSync(opts.savedFile, { force: true });
  }
  return { retries, replays, saved };
}

/** Save message bodies for the next start (atomic replace). */
export function saveMessages(file: string, bodies: string[]) {
  if (!bodies.length) return rmSync(file, { force: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(bodies));
  renameSync(`${file}.tmp`, file);
}
