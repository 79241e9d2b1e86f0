/**
 * The local runtime's queue pollers (dev/queue.ts) when nothing happens: a poller whose queue is
 * empty stops receiving every half second and sleeps until a send wakes it, and a message that
 * is still in flight keeps it polling, since its return after the visibility timeout wakes nobody.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { expect, it } from 'vitest';
import { QUIET_MS, startQueuePoller, startQueues } from '../../dev/queue';
import { until } from '../helpers/until';

/** Counts the commands `client` sends, by name. */
function countCommands(client: Awaited<ReturnType<typeof startQueues>>['client']) {
  const counts = new Map<string, number>();
  client.middlewareStack.add(
    (next, context) => (args) => {
      counts.set(context.commandName!, (counts.get(context.commandName!) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize' },
  );
  return (name: string) => counts.get(name) ?? 0;
}

it('an idle poller sleeps until a send wakes it; a message in flight keeps it polling until it returns', async () => {
  const queues = await startQueues({ maxReceiveCount: 10, visibilityTimeoutS: 3 });
  const sent = countCommands(queues.client);
  const handled: string[] = [];
  let crashes = 0;
  const poller = startQueuePoller(
    queues,
    async (e) => {
      if (e.Records.some((r) => r.body === 'crash once') && crashes === 0) {
        crashes++;
        throw new Error('crashed');
      }
      handled.push(...e.Records.map((r) => r.body));
    },
    { concurrency: 1 },
  );
  try {
    // Backed off to its longest poll, it asks whether the queue holds anything; it holds nothing.
    await until('the poller to find its queue empty', () => sent('GetQueueAttributesCommand') > 0);
    const quietFrom = Date.now();
    const receives = sent('ReceiveMessageCommand');
    // Two seconds of quiet: four receives or more at the half-second poll, none in the quiet sleep.
    await sleep(2_000);
    expect(sent('ReceiveMessageCommand')).toBe(receives);
    // A send wakes it: the message is handled before the quiet sleep would have ended.
    await queues.client.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: 'hello' }));
    await until('the message to be handled', () => handled.includes('hello'));
    expect(Date.now() - quietFrom).toBeLessThan(QUIET_MS);
    // A crashed invocation leaves its message in flight: the poller keeps polling (no quiet sleep)
    // and handles it when it returns after the 3 s visibility timeout (past the backoff to its longest poll), with no send to wake it.
    const crashFrom = Date.now();
    await queues.client.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: 'crash once' }));
    await until('the crashed message to return and be handled', () => handled.includes('crash once'));
    expect(crashes).toBe(1);
    expect(Date.now() - crashFrom).toBeLessThan(QUIET_MS);
  } finally {
    await poller.stop();
    await queues.stop();
  }
});
