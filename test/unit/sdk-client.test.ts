import { afterEach, describe, expect, it, vi } from 'vitest';

describe('the DynamoDB client (lib/store/client.ts)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('has no logger middleware: no command copies its input and output for a log line nobody writes', async () => {
    vi.stubEnv('TABLE_NAME', process.env.TABLE_NAME ?? 'unit-test-table');
    const { ddbClient } = await import('../../lib/store/client');
    const names = ddbClient.middlewareStack.identify();
    // The stack as the SDK builds it, so the check below cannot pass by looking at the wrong names.
    expect(names.some((n) => n.startsWith('retryMiddleware'))).toBe(true);
    expect(names.filter((n) => n.startsWith('loggerMiddleware'))).toEqual([]);
  });
});
