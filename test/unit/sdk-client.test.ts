import { afterEach, describe, expect, it, vi } from 'vitest';
import { ddbClient } from '../../lib/store/client';

/** The middleware names of a client's stack; retryMiddleware is there so the check cannot pass on the wrong names. */
function stackOf(client: { middlewareStack: { identify(): string[] } }) {
  const names = client.middlewareStack.identify();
  expect(names.some((n) => n.startsWith('retryMiddleware'))).toBe(true);
  return names;
}

describe('the SDK clients we build (lib/aws/no-call-logging.ts)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('carry no logger middleware: no command copies its input and output for a log line nobody writes', async () => {
    for (const [k, v] of [
      ['TABLE_NAME', 'unit-test-table'],
      ['WEBHOOK_QUEUE_URL', 'http://127.0.0.1:1/queue/unit'],
      ['WEBHOOK_DLQ_URL', 'http://127.0.0.1:1/queue/unit-dlq'],
    ] as const)
      vi.stubEnv(k, process.env[k] ?? v);
    const { sqs } = await import('../../lib/webhooks/queue');
    for (const client of [ddbClient, sqs()]) expect(stackOf(client).filter((n) => n.startsWith('loggerMiddleware'))).toEqual([]);
  });
});
