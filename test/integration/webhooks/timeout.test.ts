/**
 * The local gateway gives each handler its route's timeout (POST /api/webhooks/{id}/test has 20 s),
 * as deployed: a receiver slower than the attempt limit makes the test call answer 200 with
 * `error: "timeout"` once the limit is past, not a 500 at the old local 10 s. The limit here is
 * just over 10 s, which is all that proves; that the deployed 15 s limit fits the route's 20 s is
 * test/unit/webhook-timeouts.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '../../../lib/routes';
import { PASSWORD, startStack, type Stack } from '../../helpers/stack';
import { tlsServers, type TestServer } from '../../helpers/tls-servers';

const servers = tlsServers(inject('tls'));
let stack: Stack;
let cookie: string;
let receiver: TestServer;
/** The attempt limit: past the old local 10 s, within the route's 20 s. */
const LIMIT_MS = 10_500;

beforeAll(async () => {
  receiver = await servers.start((_req, res) => {
    // Answers after the attempt limit; the sender has given up by then.
    const timer = setTimeout(() => res.end('too late'), LIMIT_MS + 2_000);
    res.on('close', () => clearTimeout(timer));
  });
  stack = await startStack({ webhooks: { allowLoopback: true, retrySchedule: '0', timeoutMs: LIMIT_MS } });
  const t = await stack.tenant();
  cookie = await stack.login((await t.user('admin')).email, PASSWORD);
});

afterAll(async () => {
  await stack?.close();
  await servers.closeAll();
});

describe('route timeouts in the local gateway', () => {
  it('the test call outlives 10 s and reports a slow receiver as a timeout', async () => {
    expect(routes.find((r) => r.handler === 'test-webhook')!.timeoutSeconds).toBe(20);
    const created = await stack.call('POST', '/api/webhooks', { body: { url: receiver.url('/slow') }, headers: { Cookie: cookie } });
    expect(created.status).toBe(201);
    const started = Date.now();
    const res = await stack.call('POST', `/api/webhooks/${created.body.webhook.id}/test`, { headers: { Cookie: cookie } });
    const took = Date.now() - started;
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      success: false,
      status: 0,
      error: 'timeout',
      errorMessage: `timeout after ${LIMIT_MS} ms`,
      responseBody: '',
    });
    // The upper bound is the 200 itself: past its 20 s the route's handler is ended with a 500.
    expect(took).toBeGreaterThanOrEqual(LIMIT_MS);
  }, 40_000);
});
