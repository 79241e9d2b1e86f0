/**
 * Per-token rate limits in the local gateway (the deployed usage plan's numbers come from the same
 * lib/rate-limits.ts; test/unit/rate-limits.test.ts pins the synthesized plan). Small limits here
 * so the test is quick: a burst, the steady rate, the daily quota, one bucket per token, cookie and
 * public routes outside them; and the token's API key (usageIdentifierKey) lifecycle.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { createToken, findTokenGrant } from '../../lib/store/tokens';
import { handler } from '../../functions/authorizer';
import { lambdaContext, tokenAuthorizerEvent } from '../../dev/events';
import { createGateway } from '../../dev/gateway';
import { tokenDigest } from '../../lib/auth/token';
import { deleteUsageKey } from '../../lib/auth/usage-keys';

const LIMITS = { ratePerSecond: 5, burst: 10, quotaPerDay: 40 };
let stack: Stack;
let t: TestTenant;

beforeAll(async () => {
  stack = await startStack({ rateLimits: LIMITS });
  t = await stack.tenant();
});
afterAll(() => stack.close());

const get = (token: string, path = '/api/v1/pipeline') => stack.call('GET', path, { token });

describe('the local gateway', () => {
  it('answers a burst beyond the bucket with 429, Retry-After, RateLimit-* and { error, code }', async () => {
    const token = await t.token(['pipeline:read']);
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => get(token)));
    const elapsedS = (performance.now() - t0) / 1000;
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    // 10 from the bucket, plus what refilled while they ran (more on a loaded machine), never all.
    expect(ok.length).toBeGreaterThanOrEqual(LIMITS.burst);
    expect(ok.length).toBeLessThanOrEqual(LIMITS.burst + Math.ceil(elapsedS * LIMITS.ratePerSecond));
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.length).toBe(30 - ok.length);
    for (const a of limited) {
      expect(a.body).toEqual({ error: expect.stringContaining('Too many requests'), code: 'rate_limited' });
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(a.headers.get('ratelimit-remaining')).toBe('0');
      expect(a.headers.get('ratelimit-limit')).toBe(String(LIMITS.burst));
    }
    // Successes say what is left.
    expect(ok[0]!.headers.get('ratelimit-limit')).toBe(String(LIMITS.burst));
    expect(Number(ok[0]!.headers.get('ratelimit-remaining'))).toBeLessThan(LIMITS.burst);
    // After Retry-After the token works again.
    await sleep(Number(limited[0]!.headers.get('retry-after')) * 1000);
    expect((await get(token)).status).toBe(200);
  });

  it('limits each token on its own, even within one tenant, and refused requests write nothing', async () => {
    const a = await t.token(['*']);
    const b = await t.token(['*']);
    expect((await get(a)).status).toBe(200); // the authorizer's lookup is cached from here on
    const names = Array.from({ length: 16 }, (_, i) => `Limited ${i}`);
    const answers = await Promise.all(names.map((name) => stack.call('POST', '/api/v1/candidates', { token: a, body: { name } })));
    const created = names.filter((_, i) => answers[i]!.status === 201);
    expect(answers.filter((x) => x.status === 429).length).toBeGreaterThan(0);
    expect(created.length + answers.filter((x) => x.status === 429).length).toBe(names.length);
    // Token b of the same tenant has its own bucket, still full.
    const list = await stack.call('GET', '/api/v1/candidates?limit=200', { token: b });
    expect(list.status).toBe(200);
    const listed = list.body.data.map((c: { name: string }) => c.name).filter((n: string) => n.startsWith('Limited '));
    expect(listed.sort()).toEqual(created.sort());
  });

  it('counts a daily quota and says when it resets (00:00 UTC)', async () => {
    // A gateway of its own on the same table, its quota below its burst: only the quota can refuse
    // the request after the quota's last, without waiting for a bucket to refill (the counting
    // across refills and the day's reset: test/unit/rate-limits.test.ts, on a fake clock).
    const quota = { ratePerSecond: 5, burst: 10, quotaPerDay: 6 };
    const gateway = createGateway({ rateLimits: quota });
    const url = await gateway.listen(0);
    try {
      const token = await t.token(['pipeline:read']);
      const get = async () => {
        const res = await fetch(`${url}/api/v1/pipeline`, { headers: { Authorization: `Bearer ${token}` } });
        const body = await res.json();
        stack.check('GET', '/api/v1/pipeline', res.status, body);
        return { status: res.status, body, headers: res.headers };
      };
      const within = [];
      for (let i = 0; i < quota.quotaPerDay; i++) within.push(await get());
      expect(within.map((a) => a.status)).toEqual(Array(quota.quotaPerDay).fill(200));
      const over = await get();
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ error: expect.stringContaining('daily request quota'), code: 'rate_limited' });
      const untilMidnight = Math.ceil((Math.ceil(Date.now() / 86_400_000) * 86_400_000 - Date.now()) / 1000);
      expect(Math.abs(Number(over.headers.get('retry-after')) - untilMidnight)).toBeLessThanOrEqual(2);
      expect(over.headers.get('ratelimit-limit')).toBe(String(quota.quotaPerDay));
    } finally {
      await gateway.close();
    }
  });

  it('does not count cookie (console) routes against the token limits (they have their own: session-rate-limits.test.ts), nor the public OpenAPI document', async () => {
    const admin = await t.user('admin');
    const cookie = await stack.login(admin.email, PASSWORD);
    const console = await Promise.all(
      Array.from({ length: 15 }, () => stack.call('GET', '/api/settings/pipeline', { headers: { Cookie: cookie } })),
    );
    expect(console.map((a) => a.status)).toEqual(Array(15).fill(200));
    expect(console[0]!.headers.get('ratelimit-limit')).toBeNull();
    const open = await Promise.all(Array.from({ length: 15 }, () => stack.call('GET', '/api/v1/openapi.json')));
    expect(open.map((a) => a.status)).toEqual(Array(15).fill(200));
  });
});

describe("a token's API key in the usage plan", () => {
  it('the authorizer returns the key as usageIdentifierKey; a token without one gets none', async () => {
    const keyed = await createToken({ id: t.id, slug: t.slug }, 'keyed', ['pipeline:read'], async () => ({
      id: 'key-id',
      value: 'k'.repeat(40),
    }));
    const res = await handler(tokenAuthorizerEvent(`Bearer ${keyed.token}`, 'GET', '/api/v1/pipeline'), lambdaContext('authorizer'));
    expect(res.usageIdentifierKey).toBe('k'.repeat(40));
    const plain = await t.token(['pipeline:read']);
    expect(
      (await handler(tokenAuthorizerEvent(`Bearer ${plain}`, 'GET', '/api/v1/pipeline'), lambdaContext('authorizer'))).usageIdentifierKey,
    ).toBeUndefined();
    // The key value is never listed.
    const admin = await t.user('admin');
    const cookie = await stack.login(admin.email, PASSWORD);
    const listed = await stack.call('GET', '/api/tokens', { headers: { Cookie: cookie } });
    expect(listed.text).not.toContain('k'.repeat(40));
    expect(listed.text).not.toContain('key-id');
  });

  it('with a plan (deployed), a key is made with the token, rolled back if the plan refuses it, deleted on revoke', async () => {
    const api = await import('@aws-sdk/client-api-gateway');
    const calls: string[] = [];
    let refuse = false;
    const send = vi.spyOn(api.APIGatewayClient.prototype, 'send').mockImplementation((async (cmd: {
      constructor: { name: string };
      input: Record<string, unknown>;
    }) => {
      calls.push(`${cmd.constructor.name} ${JSON.stringify(cmd.input.usagePlanId ?? cmd.input.apiKey ?? cmd.input.name ?? '')}`);
      if (cmd instanceof api.GetUsagePlansCommand)
        return {
          items: [
            { id: 'other', name: 'x' },
            { id: 'plan-1', name: 'stack-api-tokens' },
          ],
        };
      if (cmd instanceof api.CreateApiKeyCommand) return { id: 'key-1', value: cmd.input.value };
      if (cmd instanceof api.CreateUsagePlanKeyCommand && refuse) throw new Error('plan refused');
      if (cmd instanceof api.DeleteApiKeyCommand && cmd.input.apiKey === 'gone')
        throw new api.NotFoundException({ message: 'gone', $metadata: {} });
      return {};
    }) as never);
    process.env.USAGE_PLAN_NAME = 'stack-api-tokens';
    try {
      const admin = await t.user('admin');
      const cookie = await stack.login(admin.email, PASSWORD);
      const created = await stack.call('POST', '/api/tokens', {
        headers: { Cookie: cookie },
        body: { name: 'planned', scopes: ['pipeline:read'] },
      });
      expect(created.status, created.text).toBe(201);
      expect(calls.map((c) => c.split(' ')[0])).toEqual(['GetUsagePlansCommand', 'CreateApiKeyCommand', 'CreateUsagePlanKeyCommand']);
      expect(calls[2]).toContain('plan-1');
      const grant = await findTokenGrant(tokenDigest(created.body.data.token));
      expect(grant?.usage_key).toMatch(/^[A-Za-z0-9_-]{40}$/);
      calls.length = 0;
      expect((await stack.call('DELETE', `/api/tokens/${created.body.data.id}`, { headers: { Cookie: cookie } })).status).toBe(200);
      expect(calls).toEqual(['DeleteApiKeyCommand "key-1"']);
      // The plan refusing the key: the key is deleted again and no token exists.
      refuse = true;
      calls.length = 0;
      const failed = await stack.call('POST', '/api/tokens', {
        headers: { Cookie: cookie },
        body: { name: 'refused', scopes: ['pipeline:read'] },
      });
      expect(failed.status).toBe(500);
      expect(calls.map((c) => c.split(' ')[0])).toEqual(['CreateApiKeyCommand', 'CreateUsagePlanKeyCommand', 'DeleteApiKeyCommand']);
      const tokens = await stack.call('GET', '/api/tokens', { headers: { Cookie: cookie } });
      expect(tokens.body.data.map((x: { name: string }) => x.name)).not.toContain('refused');
      await expect(deleteUsageKey('gone')).resolves.toBeUndefined();
    } finally {
      delete process.env.USAGE_PLAN_NAME;
      send.mockRestore();
    }
  });
});
