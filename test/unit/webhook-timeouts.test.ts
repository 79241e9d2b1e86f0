/**
 * The deployed attempt limit of a webhook send and the time its test operation is given:
 * test/integration/webhooks/timeout.test.ts proves through the local gateway, with a limit just
 * over 10 s, that the operation outlives the old local 10 s and reports the slow receiver; this
 * holds the numbers it stands in for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '../../lib/config';
import { routes } from '../../lib/routes';

const saved = process.env.WEBHOOK_TIMEOUT_MS;
afterEach(() => {
  if (saved === undefined) delete process.env.WEBHOOK_TIMEOUT_MS;
  else process.env.WEBHOOK_TIMEOUT_MS = saved;
});

describe('the webhook test operation', () => {
  it('deployed (WEBHOOK_TIMEOUT_MS unset), an attempt may take 15 s, within the route’s 20 s', () => {
    delete process.env.WEBHOOK_TIMEOUT_MS;
    expect(config.webhookTimeoutMs).toBe(15_000);
    const route = routes.find((r) => r.handler === 'test-webhook')!;
    expect(route.timeoutSeconds).toBe(20);
    expect(route.timeoutSeconds! * 1000).toBeGreaterThan(config.webhookTimeoutMs);
  });
});
