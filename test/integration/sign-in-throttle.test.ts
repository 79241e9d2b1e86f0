/**
 * Sign-in throttling counts failures per account *and* client address, so that knowing someone's
 * email is no way to lock them out: a lockout from one address leaves every other address free.
 * Behind CloudFront the address and site host come from headers that CloudFront sets, believed
 * only next to the origin secret (ORIGIN_VERIFY), which this file configures.
 */
process.env.ORIGIN_VERIFY = 'origin-secret-for-tests';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
});
afterAll(() => stack.close());

const VIA_CLOUDFRONT = { 'X-Origin-Verify': 'origin-secret-for-tests' };
const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
  stack.call('POST', '/api/session', { body: { email, password }, headers });
const from = (ip: string, extra: Record<string, string> = VIA_CLOUDFRONT) => ({ ...extra, 'X-Viewer-Address': ip });

async function failFiveTimes(email: string, headers: (i: number) => Record<string, string>) {
  for (let i = 0; i < 5; i++) expect((await signIn(email, `wrong ${i}`, headers(i))).status).toBe(401);
}

describe('per account and client address', () => {
  it('five failures lock the account for that address only; the owner signs in from theirs', async () => {
    const victim = await tenant.user('recruiter');
    await failFiveTimes(victim.email, () => from('198.51.100.7'));
    const attacker = await signIn(victim.email, PASSWORD, from('198.51.100.7'));
    expect([attacker.status, attacker.body.error]).toEqual([429, 'too many failed sign-ins from this address; try again later']);
    expect(Number(attacker.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await signIn(victim.email, PASSWORD, from('203.0.113.50'))).status).toBe(200);
  });

  it('without the origin secret the viewer header is ignored: spoofed addresses share one count', async () => {
    const victim = await tenant.user('recruiter');
    await failFiveTimes(victim.email, (i) => ({ 'X-Viewer-Address': `192.0.2.${i}` }));
    expect((await signIn(victim.email, PASSWORD, { 'X-Viewer-Address': '192.0.2.99' })).status).toBe(429);
    const wrongSecret = await signIn(victim.email, PASSWORD, from('192.0.2.100', { 'X-Origin-Verify': 'guessed' }));
    expect(wrongSecret.status).toBe(429);
  });

  it('IPv6 addresses in one /64 share a count; another /64 does not', async () => {
    const victim = await tenant.user('recruiter');
    await failFiveTimes(victim.email, (i) => from(`2001:db8:1:2::${i + 1}`));
    expect((await signIn(victim.email, PASSWORD, from('2001:db8:1:2:ffff:ffff:ffff:ffff'))).status).toBe(429);
    expect((await signIn(victim.email, PASSWORD, from('2001:db8:1:3::1'))).status).toBe(200);
  });

  it('a success from an address clears only that address', async () => {
    const user = await tenant.user('recruiter');
    for (let i = 0; i < 4; i++) await signIn(user.email, 'wrong', from('198.51.100.20'));
    for (let i = 0; i < 4; i++) await signIn(user.email, 'wrong', from('198.51.100.21'));
    expect((await signIn(user.email, PASSWORD, from('198.51.100.20'))).status).toBe(200);
    expect((await signIn(user.email, 'wrong', from('198.51.100.21'))).status).toBe(401);
    expect((await signIn(user.email, PASSWORD, from('198.51.100.21'))).status).toBe(429);
    expect((await signIn(user.email, PASSWORD, from('198.51.100.20'))).status).toBe(200);
  });
});

describe('same-origin writes behind CloudFront', () => {
  it("the site host CloudFront forwards counts as the API's own, only with the origin secret", async () => {
    const user = await tenant.user('recruiter');
    const cookie = await stack.login(user.email, PASSWORD);
    const write = (headers: Record<string, string>) =>
      stack.call('POST', '/api/tokens', {
        body: { name: 'edge', scopes: ['pipeline:read'] },
        headers: { Cookie: cookie, Origin: 'https://console.example.com', ...headers },
      });
    expect((await write({ ...VIA_CLOUDFRONT, 'X-Forwarded-Host': 'console.example.com' })).status).toBe(201);
    expect((await write({ 'X-Forwarded-Host': 'console.example.com' })).status).toBe(403);
    expect((await write({ ...VIA_CLOUDFRONT, 'X-Forwarded-Host': 'other.example.com' })).status).toBe(403);
  });
});
