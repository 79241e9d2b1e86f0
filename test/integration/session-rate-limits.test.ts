/**
 * Per-member rate limits on the console's cookie routes in the local gateway, as the WAF's
 * per-session rule limits them deployed (test/unit/waf.test.ts pins that rule; the numbers come
 * from lib/rate-limits.ts). Small limits here, so a burst of twelve goes past them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

const LIMITS = { ratePerSecond: 1, burst: 4, quotaPerDay: 0 };
let stack: Stack;
let t: TestTenant;

beforeAll(async () => {
  stack = await startStack({ sessionRateLimits: LIMITS });
  t = await stack.tenant();
});
afterAll(() => stack.close());

it('a member beyond the bucket gets 429 rate_limited with Retry-After; another member, the token routes and sign-in do not', async () => {
  const [a, b] = [await t.user('recruiter'), await t.user('recruiter')];
  const cookieA = await stack.login(a.email, PASSWORD);
  const cookieB = await stack.login(b.email, PASSWORD);
  const get = (cookie: string) => stack.call('GET', '/api/candidates?limit=5', { headers: { Cookie: cookie } });
  const t0 = performance.now();
  const answers = await Promise.all(Array.from({ length: 12 }, () => get(cookieA)));
  const elapsedS = (performance.now() - t0) / 1000;
  const ok = answers.filter((x) => x.status === 200);
  const limited = answers.filter((x) => x.status === 429);
  // The bucket, plus what refilled while they ran: never all twelve.
  expect(ok.length).toBeGreaterThanOrEqual(LIMITS.burst);
  expect(ok.length).toBeLessThanOrEqual(LIMITS.burst + Math.ceil(elapsedS * LIMITS.ratePerSecond));
  expect(limited.length).toBe(12 - ok.length);
  expect(limited.length).toBeGreaterThan(0);
  for (const x of limited) {
    expect(x.body).toEqual({ error: expect.stringContaining('Too many requests'), code: 'rate_limited' });
    expect(Number(x.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
  expect(ok[0]!.headers.get('ratelimit-limit')).toBe(String(LIMITS.burst));
  // Each member has a bucket of their own; a token's calls and a sign-in count in none.
  expect((await get(cookieB)).status).toBe(200);
  const token = await t.token(['*']);
  expect((await stack.call('GET', '/api/v1/candidates?limit=5', { token })).status).toBe(200);
  expect(await stack.login(a.email, PASSWORD)).toMatch(/^__Host-tp_session=/);
});
