/**
 * The wrapper of every function that is not an API route (the authorizers, the stream and queue
 * consumers): Powertools' logger context and cold-start metric, as middy middlewares, around a
 * rule that lives in lib/. The API routes get the same two through apiHandler (lib/http.ts).
 *
 * Queue and stream consumers go through queueHandler and streamHandler: Lambda's records become
 * typed messages (lib/records.ts) here, at the edge, so lib/domain and lib/webhooks never see a
 * Lambda event type. Each record is validated and handled on its own by Powertools' batch
 * processor, and a record that fails is reported alone (batchItemFailures).
 */
import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { parser as BatchParser } from '@aws-lambda-powertools/batch/parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import type { z } from 'zod/mini';
import { ValidationError } from './errors';
import { logger } from './logger';
import { metrics } from './metrics';
import type { Invocation, QueueMessage, StreamChange } from './records';
import { parse } from './validate';

/**
 * `resetKeys` for the functions that append keys (the authorizers: tenant, correlation id), so
 * that one invocation's keys never reach the next one's lines. The stream and queue consumers
 * append none, and must not reset: the local runtime runs them in the API's process, beside
 * requests whose correlation id a reset would wipe.
 */
export function lambdaHandler<E, R>(fn: (event: E, context: Context) => Promise<R>, opts: { resetKeys?: boolean } = {}) {
  return middy<E, R, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: opts.resetKeys ?? false }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .handler(fn);
}

/** A consumer of a batch of messages (M): its rules, which the adapter runs around the batch processor. */
export interface BatchRules<M, B = undefined> {
  /**
   * Before any record runs, from the records that parsed: what the batch shares (a prefetch, a
   * plan). A throw here fails the invocation, and with it the whole batch.
   */
  prepare?(items: readonly M[], invocation: Invocation): B | Promise<B>;
  /** One record; a throw fails this record alone. */
  record(item: M, batch: B, invocation: Invocation): Promise<void>;
  /**
   * After every record ran (`failed`: the ids of those that failed): the batch's own writes.
   * Answers the ids of the records those writes lost, reported failed as well.
   */
  finish?(batch: B, failed: readonly string[]): Promise<readonly string[] | undefined>;
  /** Records one after another in the batch's order, rather than side by side. */
  inOrder?: boolean;
}

export interface QueueRules<T, B = undefined> extends BatchRules<QueueMessage<T>, B> {
  /**
   * A message that fails its schema can never succeed. Without this it fails (and comes back
   * until the queue's redrive sets it aside); with it, this decides (a dead-letter, say).
   */
  invalid?(message: { id: string; raw: string }, error: ValidationError): Promise<void>;
}

/** The Standard Schema the batch processor's parser config names (zod/mini schemas are ones). */
type StandardSchemaV1 = Extract<NonNullable<ConstructorParameters<typeof BatchProcessor>[1]>, { schema: unknown }>['schema'];

type Parsed<R, M> = { ok: true; item: M } | { ok: false; error: unknown; record: R };

const jsonOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('message is not valid JSON');
  }
};

/** An SQS record as a typed message; throws a ValidationError naming the field at fault. */
export const queueMessage = <S extends z.ZodMiniType>(schema: S, r: SQSRecord): QueueMessage<z.output<S>> => ({
  id: r.messageId,
  body: parse(schema, jsonOf(r.body), 'message'),
  raw: r.body,
  receiveCount: Number(r.attributes?.ApproximateReceiveCount) || 1,
  receiptHandle: r.receiptHandle,
});

const image = (i: Record<string, unknown> | undefined) => (i ? unmarshall(i as Record<string, AttributeValue>) : undefined);

/** A DynamoDB stream record as a change, its images unmarshalled. Converts only; streamHandler validates. */
export const streamChange = (r: DynamoDBRecord): StreamChange =>
  ({
    id: r.eventID,
    name: r.eventName,
    sequence: r.dynamodb?.SequenceNumber,
    keys: image(r.dynamodb?.Keys) ?? {},
    newImage: image(r.dynamodb?.NewImage),
    oldImage: image(r.dynamodb?.OldImage),
  }) as StreamChange;

const CHANGE_NAMES = new Set(['INSERT', 'MODIFY', 'REMOVE']);

/**
 * A change as the stream must give it: an id, a name and a sequence number. A small parser of its
 * own rather than a zod schema: the maintenance consumer's bundle carries no zod otherwise.
 */
const checkedChange = (c: StreamChange): StreamChange => {
  if (!c.id) throw new ValidationError('id is required', { field: 'eventID' });
  if (!CHANGE_NAMES.has(c.name)) throw new ValidationError('eventName must be INSERT, MODIFY or REMOVE', { field: 'eventName' });
  if (!c.sequence) throw new ValidationError('sequence is required', { field: 'dynamodb.SequenceNumber' });
  return c;
};

/** The batch processor's parser config names a schema; the adapters' hook has parsed already. */
const parsedBefore = (vendor: string): StandardSchemaV1 => ({
  '~standard': { version: 1, vendor, validate: (value) => ({ value }) },
});

/**
 * Run a batch: convert each record once, prepare, hand each to the batch processor, whose parser
 * hook answers the conversion made here (so a record that failed it fails alone, as one whose
 * handling throws does), then finish. Answers the ids of the failed records, in the batch's order.
 */
async function runBatch<R extends object, M, B>(
  run: {
    type: keyof typeof EventType;
    schema: StandardSchemaV1;
    convert: (r: R) => M;
    idOf: (r: R) => string;
    invalid?: (r: R, error: ValidationError) => Promise<void>;
  },
  records: readonly R[],
  context: Context,
  rules: BatchRules<M, B>,
): Promise<string[]> {
  const invocation: Invocation = {
    timeLeftMs: () => (typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : Infinity),
  };
  const parsed = new Map<object, Parsed<R, M>>();
  for (const record of records) {
    try {
      parsed.set(record, { ok: true, item: run.convert(record) });
    } catch (error) {
      // The field at fault; never the record (it can carry personal data), nor the sentence, which
      // can quote one of its keys.
      logger.error('record not valid', { id: run.idOf(record), field: (error as ValidationError).field ?? null });
      parsed.set(record, { ok: false, error, record });
    }
  }
  const items = [...parsed.values()].flatMap((p) => (p.ok ? [p.item] : []));
  const batch = (rules.prepare ? await rules.prepare(items, invocation) : undefined) as B;
  // The processor's parsing hook: the record's conversion, made once above for `prepare`.
  const parser = (async (record: object) => {
    const p = parsed.get(record)!;
    if (!p.ok && !(run.invalid && p.error instanceof ValidationError)) throw p.error;
    return p;
  }) as unknown as typeof BatchParser;
  // A processor per invocation: it holds the batch's state, and local runs overlap invocations.
  // A batch whose every record failed is reported like any other, not as an invocation error.
  const result = await processPartialResponse(
    { Records: [...records] },
    (p: Parsed<R, M>) => (p.ok ? rules.record(p.item, batch, invocation) : run.invalid!(p.record, p.error as ValidationError)),
    new BatchProcessor(EventType[run.type], { parser, schema: run.schema, logger }),
    { context, processInParallel: !rules.inOrder, throwOnFullBatchFailure: false },
  );
  const failed = new Set(result.batchItemFailures.map((f) => f.itemIdentifier));
  for (const id of (await rules.finish?.(batch, [...failed])) ?? []) failed.add(id);
  return records.map(run.idOf).filter((id) => failed.has(id));
}

/**
 * A queue consumer: each message's body (JSON) validated against `schema` and handed over typed.
 * The failed messages are reported, and only they come back.
 */
export function queueHandler<S extends z.ZodMiniType, B = undefined>(schema: S, rules: QueueRules<z.output<S>, B>) {
  const invalid = rules.invalid?.bind(rules);
  return lambdaHandler(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const failed = await runBatch(
      {
        type: 'SQS',
        schema,
        convert: (r: SQSRecord) => queueMessage(schema, r),
        idOf: (r) => r.messageId,
        ...(invalid && { invalid: (r: SQSRecord, error: ValidationError) => invalid({ id: r.messageId, raw: r.body }, error) }),
      },
      event.Records,
      context,
      rules,
    );
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  });
}

/**
 * A table stream consumer: each record as a StreamChange. A stream retries a shard from its
 * earliest failed record, and runs every record after it again either way, so only that one is
 * reported: the response says where the retry starts, and nothing that would suggest less.
 */
export function streamHandler<B = undefined>(rules: BatchRules<StreamChange, B>) {
  return lambdaHandler(async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
    const failed = await runBatch(
      {
        type: 'DynamoDBStreams',
        schema: parsedBefore('stream-change'),
        convert: (r: DynamoDBRecord) => checkedChange(streamChange(r)),
        idOf: (r) => r.dynamodb?.SequenceNumber ?? '',
      },
      event.Records,
      context,
      rules,
    );
    return { batchItemFailures: failed.slice(0, 1).map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
