/**
 * Local stand-in for the DynamoDB stream -> Lambda event source mapping: polls DynamoDB
 * Local's stream, applies the same filter patterns, invokes the fan-out handler with
 * Lambda-shaped batches, retries from the first failed record, and checkpoints per shard so a
 * restart of `npm start` neither loses nor replays events.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { STREAM_FILTER_PATTERNS } from '../lib/webhooks/events';
import { lambdaContext, LOCAL_REGION } from './events';
import { invocation } from './invocation';
import { localClient } from './table';
import { withoutCallLogging } from '../lib/aws/no-call-logging';

// biome-ignore lint/suspicious/noConfusingVoidType: a stream handler may return nothing, as Lambda allows
type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

/** Lambda event filtering, for the subset of its syntax our patterns use (value lists, nesting). */
export function matchesPattern(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.includes(value as never);
  if (!pattern || typeof pattern !== 'object') return false;
  if (!value || typeof value !== 'object') return false;
  return Object.entries(pattern).every(([k, p]) => matchesPattern(p, (value as Record<string, unknown>)[k]));
}

/** One event source mapping: a function and its filter patterns. */
export interface StreamConsumer {
  handler: StreamHandler;
  /** The event source mapping's filter patterns; the fan-out's by default. */
  filters?: readonly unknown[];
  /** The function's name in the Lambda context it is handed. */
  functionName?: string;
  /** The function's timeout as deployed (ms): middy ends an invocation that runs out of it. */
  timeoutMs: number;
}

export interface StreamPollerOptions extends StreamConsumer {
  endpoint: string;
  tableName: string;
  /**
   * More event source mappings on the same stream, fed from the same reads: each gets its own
   * filtered batches and retries, and the checkpoint moves once all of them handled a batch.
   * Reading the stream once for all of them halves what DynamoDB Local spends on GetRecords.
   */
  also?: readonly StreamConsumer[];
  /** Where shard checkpoints persist across restarts. */
  checkpointFile?: string;
  intervalMs?: number;
  /** Attempts for a failing record before it is set aside (like maximumRetryAttempts). */
  maxAttempts?: number;
  log?: (line: string) => void;
}

export interface StreamPoller {
  /**
   * Resolves once the records that were in the stream at start-up have been passed over: from
   * then on every new write is delivered. A write made before it may be drained with the rest.
   */
  ready: Promise<void>;
  stop(): Promise<void>;
}

const IDLE_MAX_MS = 400;

export function startStreamPoller(opts: StreamPollerOptions): StreamPoller {
  const streams = new DynamoDBStreamsClient({
    endpoint: opts.endpoint,
    region: LOCAL_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // Its GetRecords pages (up to 1,000 records with both images) are not copied for a no-op log line.
  withoutCallLogging(streams);
  const checkpoints: Record<string, string> =
    opts.checkpointFile && existsSync(opts.checkpointFile) ? JSON.parse(readFileSync(opts.checkpointFile, 'utf8')) : {};
  const save = () => {
    if (!opts.checkpointFile) return;
    // Atomic replace: a crash mid-write must not leave a torn checkpoint file.
    writeFileSync(`${opts.checkpointFile}.tmp`, JSON.stringify(checkpoints));
    renameSync(`${opts.checkpointFile}.tmp`, opts.checkpointFile);
  };
  const iterators = new Map<string, string | undefined>();
  const finished = new Set<string>();
  const log = opts.log ?? (() => {});
  let running = true;
  let streamArn: string | undefined;
  /**
   * Shards met without a checkpoint are first read to their end without delivering anything,
   * as a new event source mapping with LATEST would, but leaving a checkpoint behind: a later
   * restart then resumes exactly there instead of replaying or skipping.
   */
  const draining = new Set<string>();
  const firstRun = !opts.checkpointFile || !existsSync(opts.checkpointFile);

  async function discover() {
    streamArn ??= (await localClient(opts.endpoint).send(new DescribeTableCommand({ TableName: opts.tableName }))).Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${opts.tableName} has no stream`);
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      if (iterators.has(id) || finished.has(id)) continue;
      const after = checkpoints[id];
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: id,
          ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      if (!after && firstRun && !started) draining.add(id);
      iterators.set(id, ShardIterator);
    }
  }

  const toLambda = (r: _Record) => ({
    eventID: r.eventID,
    eventName: r.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: LOCAL_REGION,
    eventSourceARN: streamArn,
    dynamodb: {
      ...r.dynamodb,
      ApproximateCreationDateTime: r.dynamodb?.ApproximateCreationDateTime
        ? Math.floor(new Date(r.dynamodb.ApproximateCreationDateTime).getTime() / 1000)
        : undefined,
    },
  });

  /**
   * Deliver records in order; on a reported failure, retry from that record. False when
   * stopped before the batch was handled: the caller must not checkpoint past it.
   */
  async function deliver(consumer: StreamConsumer, records: _Record[]): Promise<boolean> {
    const filters = consumer.filters ?? STREAM_FILTER_PATTERNS;
    const name = consumer.functionName ?? 'webhook-fanout';
    let pending = records.map(toLambda).filter((r) => filters.some((p) => matchesPattern(p, r)));
    for (let attempt = 1; pending.length && running; attempt++) {
      let failedAt: string | undefined;
      try {
        const context = lambdaContext(name, consumer.timeoutMs);
        const res = await invocation(context.awsRequestId, () => consumer.handler({ Records: pending } as DynamoDBStreamEvent, context));
        failedAt = res?.batchItemFailures?.[0]?.itemIdentifier;
      } catch (err) {
        failedAt = pending[0]!.dynamodb.SequenceNumber;
        log(`[stream] ${name} threw: ${(err as Error).message}`);
      }
      if (!failedAt) return true;
      const index = pending.findIndex((r) => r.dynamodb.SequenceNumber === failedAt);
      pending = pending.slice(Math.max(0, index));
      if (attempt >= (opts.maxAttempts ?? 5)) {
        log(`[stream] record ${failedAt} failed ${attempt} times; set aside (as an on-failure destination would)`);
        pending = pending.slice(1);
        attempt = 0;
      } else {
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
    return pending.length === 0;
  }

  const consumers: readonly StreamConsumer[] = [opts, ...(opts.also ?? [])];
  const deliverAll = async (records: _Record[]) => (await Promise.all(consumers.map((c) => deliver(c, records)))).every(Boolean);

  /** Shards that appear after start-up are new: everything in them is delivered. */
  let started = false;
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  // An idle stream is read less often, down to every IDLE_MAX_MS: each GetRecords costs DynamoDB
  // Local CPU, and two pollers every 100 ms kept an idle `npm start`'s Java at 8 % of a core.
  const baseMs = opts.intervalMs ?? 100;
  let idleMs = baseMs;
  const loop = (async () => {
    let lastDiscovery = 0;
    while (running) {
      try {
        if (Date.now() - lastDiscovery > 5_000 || [...iterators.values()].every((i) => !i)) {
          await discover();
          if (!started) save(); // from now on a restart resumes instead of draining
          started = true;
          lastDiscovery = Date.now();
        }
        let busy = false;
        for (const [shardId, iterator] of iterators) {
          if (!iterator || !running) continue;
          const res = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
          const records = res.Records ?? [];
          if (!records.length) draining.delete(shardId);
          if (records.length) {
            busy = true;
            // Every consumer has the batch; each retries only its own failures. Stopping: resume here next time.
            if (!draining.has(shardId) && !(await deliverAll(records))) break;
            checkpoints[shardId] = records.at(-1)!.dynamodb!.SequenceNumber!;
            save();
          }
          if (!res.NextShardIterator) {
            iterators.delete(shardId);
            finished.add(shardId);
          } else iterators.set(shardId, res.NextShardIterator);
        }
        if (started && draining.size === 0) markReady();
        if (busy) idleMs = baseMs;
        else {
          await new Promise((r) => setTimeout(r, idleMs));
          idleMs = Math.min(Math.max(baseMs, IDLE_MAX_MS), idleMs * 2);
        }
      } catch (err) {
        if (!running) break;
        log(`[stream] poll failed: ${(err as Error).message}`);
        iterators.clear(); // expired or trimmed iterators: rediscover from the checkpoints
        lastDiscovery = 0;
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  })();

  return {
    ready,
    stop: async () => {
      running = false;
      await loop;
      markReady();
      streams.destroy();
    },
  };
}
