import { afterEach, describe, expect, it, vi } from 'vitest';
import { ddb, tableName } from '../../lib/store/client';
import { batchPut } from '../../lib/store/batch';
import { logger } from '../../lib/logger';

const item = (n: number) => ({ PK: 'T#t#WEBHOOKS', SK: `EVT#${n}`, body: `secret body ${n}` });
type Sent = { input: { RequestItems: Record<string, { PutRequest: { Item: unknown } }[]> } };
const putsOf = (cmd: unknown) => (cmd as Sent).input.RequestItems[tableName()]!.map((r) => r.PutRequest.Item);
const failWith = (name: string) => Object.assign(new Error('refused'), { name });

afterEach(() => vi.restoreAllMocks());

describe('batchPut', () => {
  it('writes 25 per call, each key once, and retries what comes back unprocessed', async () => {
    const calls: unknown[][] = [];
    vi.spyOn(ddb, 'send').mockImplementation(async (cmd: unknown) => {
      const puts = putsOf(cmd);
      calls.push(puts);
      // The first call of the first chunk leaves its last item unprocessed.
      return calls.length === 1 ? { UnprocessedItems: { [tableName()]: [{ PutRequest: { Item: puts.at(-1) } }] } } : {};
    });
    const items = Array.from({ length: 30 }, (_, i) => item(i));
    expect(await batchPut([...items, item(3)])).toEqual([]);
    expect(calls.map((c) => c.length).sort((a, b) => a - b)).toEqual([1, 5, 25]);
  });

  it('does not retry a refusal no retry can change, and logs the error name, never the items', async () => {
    const send = vi.spyOn(ddb, 'send').mockRejectedValue(failWith('ValidationException'));
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const items = [item(1), item(2)];
    expect(await batchPut(items)).toEqual(items);
    expect(send).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('batch write failed', { error: 'ValidationException', attempt: 1, items: 2 });
    expect(JSON.stringify(warn.mock.calls)).not.toContain('secret body');
  });

  it('gives up after a bounded number of calls and hands back what is left', async () => {
    const send = vi.spyOn(ddb, 'send').mockRejectedValue(failWith('InternalServerError'));
    vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    expect(await batchPut([item(1)])).toEqual([item(1)]);
    expect(send).toHaveBeenCalledTimes(5);
  });
});
