/**
 * The queue and stream adapters (lib/lambda.ts): each record parsed and handled on its own, a bad
 * record failing alone, the handler given typed messages, and the batch-level hooks (prepare,
 * finish, order) that the fan-out, the delivery and the maintenance consumer build on.
 */
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { lambdaContext } from '../../dev/events';
import { queueHandler, streamHandler } from '../../lib/lambda';
import type { QueueMessage, StreamChange } from '../../lib/records';
import { captureOutput } from '../helpers/capture';
import { deliveryRecord, streamRecord, TENANT } from '../helpers/lambda-records';

const Job = z.object({ v: z.literal(1), jobId: z.string(), n: z.optional(z.int()) });
type Job = z.output<typeof Job>;

const sqsEvent = (...bodies: string[]): SQSEvent => ({ Records: bodies.map((b, i) => deliveryRecord(i, b)) });
const job = (jobId: string, extra: Record<string, unknown> = {}) => JSON.stringify({ v: 1, jobId, ...extra });
const ctx = () => lambdaContext('adapter-test');

describe('queueHandler', () => {
  it('hands every message of a good batch over typed, and reports no failure', async () => {
    const seen: QueueMessage<Job>[] = [];
    const handler = queueHandler(Job, { record: async (m) => void seen.push(m) });
    const res = await handler(sqsEvent(job('a', { n: 1 }), job('b')), ctx());
    expect(res).toEqual({ batchItemFailures: [] });
    expect(seen.map((m) => m.body).sort((x, y) => x.jobId.localeCompare(y.jobId))).toEqual([
      { v: 1, jobId: 'a', n: 1 },
      { v: 1, jobId: 'b' },
    ]);
    const a = seen.find((m) => m.body.jobId === 'a')!;
    expect(a).toMatchObject({ id: 'm0', raw: job('a', { n: 1 }), receiveCount: 1, receiptHandle: 'r0' });
  });

  it('fails a message that is not JSON, or not of the schema, alone: the others are handled and not reported', async () => {
    const handled: string[] = [];
    const prepared: string[][] = [];
    const handler = queueHandler(Job, {
      prepare: (items) => void prepared.push(items.map((m) => m.body.jobId)),
      record: async (m) => void handled.push(m.body.jobId),
    });
    const res = await handler(sqsEvent(job('a'), '{not json', job('c', { n: 'three' }), job('d')), ctx());
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }]);
    expect(handled.sort()).toEqual(['a', 'd']);
    // The batch's shared work sees only the messages that parsed.
    expect(prepared).toEqual([['a', 'd']]);
  });

  it('logs a message that fails its schema by its id and the field at fault, never its content', async () => {
    const handler = queueHandler(Job, { record: async () => {} });
    const out = captureOutput();
    try {
      await handler(sqsEvent(JSON.stringify({ v: 1, jobId: 'zoe@example.com', n: 'Zoë Ådahl' })), ctx());
    } finally {
      out.restore();
    }
    const line = out.jsonLines().find((l) => l.message === 'record not valid');
    expect(line).toMatchObject({ level: 'ERROR', id: 'm0', field: 'n' });
    expect(out.text()).not.toContain('zoe@example.com');
    expect(out.text()).not.toContain('Zoë');
  });

  it('fails a message whose handling throws alone', async () => {
    const handler = queueHandler(Job, {
      record: async (m) => {
        if (m.body.jobId === 'b') throw new Error('receiver down');
      },
    });
    expect(await handler(sqsEvent(job('a'), job('b'), job('c')), ctx())).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  });

  it('lets `invalid` decide for a malformed message (a dead-letter): it is then not reported', async () => {
    const setAside: { id: string; raw: string; why: string }[] = [];
    const handler = queueHandler(Job, {
      record: async () => {},
      invalid: async (m, err) => void setAside.push({ ...m, why: err.message }),
    });
    const res = await handler(sqsEvent(job('a'), JSON.stringify({ v: 1 })), ctx());
    expect(res.batchItemFailures).toEqual([]);
    expect(setAside).toEqual([{ id: 'm1', raw: JSON.stringify({ v: 1 }), why: 'jobId is required' }]);
  });

  it('reports the messages that `finish` says its batch write lost, beside those that failed', async () => {
    const handler = queueHandler(Job, {
      prepare: () => ({ ok: [] as string[] }),
      record: async (m, batch) => {
        if (m.body.jobId === 'c') throw new Error('no');
        batch.ok.push(m.id);
      },
      finish: async (batch, failed) => {
        expect(failed).toEqual(['m2']);
        return batch.ok.filter((id) => id === 'm0');
      },
    });
    expect(await handler(sqsEvent(job('a'), job('b'), job('c')), ctx())).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm0' }, { itemIdentifier: 'm2' }],
    });
  });

  it('runs the records one after another, in order, when `inOrder`', async () => {
    const log: string[] = [];
    const handler = queueHandler(Job, {
      inOrder: true,
      record: async (m) => {
        log.push(`start ${m.body.jobId}`);
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`end ${m.body.jobId}`);
      },
    });
    await handler(sqsEvent(job('a'), job('b')), ctx());
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });
});

describe('streamHandler', () => {
  const item = (id: string) => ({ PK: `T#${TENANT}`, SK: `X#${id}`, type: 'thing', id, n: 7, tags: ['x'] });

  it('hands each record over as a change with plain images and keys', async () => {
    const seen: StreamChange[] = [];
    const handler = streamHandler({ record: async (c) => void seen.push(c) });
    const rec = streamRecord('MODIFY', { ...item('a'), n: 8 }, item('a'));
    expect(await handler({ Records: [rec] }, ctx())).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual([
      {
        id: rec.eventID,
        name: 'MODIFY',
        sequence: rec.dynamodb!.SequenceNumber,
        keys: { PK: `T#${TENANT}`, SK: 'X#a' },
        newImage: { ...item('a'), n: 8 },
        oldImage: item('a'),
      },
    ]);
  });

  it('reports only the earliest failed record (a stream retries from there), whatever failed after it', async () => {
    const records = ['a', 'b', 'c', 'd'].map((id) => streamRecord('INSERT', item(id)));
    const handled: string[] = [];
    const handler = streamHandler({
      record: async (c) => {
        if (c.newImage!.id === 'b' || c.newImage!.id === 'd') throw new Error('no');
        handled.push(String(c.newImage!.id));
      },
    });
    const res = await handler({ Records: records } as DynamoDBStreamEvent, ctx());
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: records[1]!.dynamodb!.SequenceNumber }] });
    expect(handled.sort()).toEqual(['a', 'c']);
  });

  it('fails a record without a sequence number or event id alone, without handing it over', async () => {
    const good = streamRecord('INSERT', item('a'));
    const bad = streamRecord('INSERT', item('b'));
    delete bad.eventID;
    const handled: unknown[] = [];
    const handler = streamHandler({ record: async (c) => void handled.push(c.newImage!.id) });
    const res = await handler({ Records: [good, bad] }, ctx());
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: bad.dynamodb!.SequenceNumber }] });
    expect(handled).toEqual(['a']);
  });

  it('fails the invocation when `prepare` throws, so the whole batch is retried (and bisected)', async () => {
    const handler = streamHandler({
      prepare: () => {
        throw new Error('bodies not kept');
      },
      record: async () => {},
    });
    await expect(handler({ Records: [streamRecord('INSERT', item('a'))] }, ctx())).rejects.toThrow('bodies not kept');
  });
});
