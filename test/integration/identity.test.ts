import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureOutput } from '../helpers/capture';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { sessionDigest } from '../../lib/auth/session';
import { keys } from '../../lib/store/table';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/store/client';
import { getSession } from '../../lib/store/sessions';
import { tokenDigest } from '../../lib/auth/token';
import { findUserByEmail } from '../../lib/store/users';

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let admin: { id: string; email: string };
let member: { id: string; email: string };

// A short authorizer cache so that revocation can be observed without waiting a minute.
beforeAll(async () => {
  stack = await startStack({ authorizerCacheTtlSeconds: 1 });
  a = await stack.tenant();
  b = await stack.tenant();
  admin = await a.user('admin');
  member = await a.user('recruiter');
});
afterAll(() => stack.close());

const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({ headers: { Cookie: cookie, ...extra } });

async function sessionItem(cookie: string) {
  return { key: keys.session(sessionDigest(cookie.split('=')[1]!)) };
}

async function setSessionTimes(cookie: string, times: { created_at?: string; last_seen_at?: string }) {
  const { key } = await sessionItem(cookie);
  const names = Object.keys(times);
  await ddb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: `SET ${names.map((_n, i) => `#a${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#a${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, times[n as keyof typeof times]])),
    }),
  );
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

describe('login', () => {
  it('answers the user and workspace and sets a strict session cookie', async () => {
    const res = await stack.call('POST', '/api/session', { body: { email: admin.email.toUpperCase(), password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        user: { id: admin.id, email: admin.email, role: 'admin', must_change_password: false, two_factor_enabled: false, time_zone: null },
        tenant: { slug: a.slug, name: `Tenant ${a.slug}` },
      },
    });
    const cookies = res.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    const [pair, ...attrs] = cookies[0]!.split(';').map((p) => p.trim());
    expect(pair).toMatch(/^__Host-tp_session=[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(attrs).toEqual(expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/']));
    expect(attrs.some((x) => /^domain=/i.test(x))).toBe(false);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const wrongPassword = await stack.call('POST', '/api/session', { body: { email: member.email, password: 'not the password' } });
    const unknownEmail = await stack.call('POST', '/api/session', { body: { email: 'nobody@example.com', password: PASSWORD } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body).toEqual({ error: 'email or password is incorrect', code: 'unauthorized' });
    expect(wrongPassword.headers.getSetCookie()).toEqual([]);
  });

  it('validates the body', async () => {
    for (const [body, message] of [
      [{ email: admin.email }, /password is required/],
      [{ password: PASSWORD }, /email is required/],
      [{ email: admin.email, password: '' }, /password must not be empty/],
      [{ email: admin.email, password: PASSWORD, remember: true }, /unknown body field "remember"/],
    ] as const) {
      const res = await stack.call('POST', '/api/session', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });

  it('locks an account after 5 failures, even for the right password, and unknown emails alike', async () => {
    const victim = await a.user('recruiter');
    for (let i = 0; i < 5; i++) {
      expect((await stack.call('POST', '/api/session', { body: { email: victim.email, password: `wrong ${i}` } })).status).toBe(401);
    }
    const locked = await stack.call('POST', '/api/session', { body: { email: victim.email, password: PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatch(/too many failed sign-ins/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    for (let i = 0; i < 5; i++) await stack.call('POST', '/api/session', { body: { email: 'ghost@example.com', password: 'x' } });
    expect((await stack.call('POST', '/api/session', { body: { email: 'ghost@example.com', password: 'x' } })).status).toBe(429);
    // Other accounts are unaffected.
    expect((await stack.call('POST', '/api/session', { body: { email: member.email, password: PASSWORD } })).status).toBe(200);
  });

  it('forgets failures after a success', async () => {
    const user = await a.user('recruiter');
    for (let i = 0; i < 4; i++) await stack.call('POST', '/api/session', { body: { email: user.email, password: 'wrong' } });
    await stack.login(user.email, PASSWORD);
    for (let i = 0; i < 4; i++) await stack.call('POST', '/api/session', { body: { email: user.email, password: 'wrong' } });
    expect((await stack.call('POST', '/api/session', { body: { email: user.email, password: PASSWORD } })).status).toBe(200);
  });
});

describe('sessions', () => {
  it('GET /api/session returns the current user; no cookie or a bad one is 401', async () => {
    const cookie = await stack.login(member.email, PASSWORD);
    const res = await stack.call('GET', '/api/session', withCookie(cookie));
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual({
      id: member.id,
      email: member.email,
      role: 'recruiter',
      must_change_password: false,
      two_factor_enabled: false,
      time_zone: null,
    });
    expect((await stack.call('GET', '/api/session')).status).toBe(401);
    const forged = await stack.call('GET', '/api/session', withCookie(`__Host-tp_session=${'A'.repeat(43)}`));
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ error: expect.any(String), code: 'unauthorized' });
  });

  it('logout ends the session at once and clears the cookie', async () => {
    const cookie = await stack.login(member.email, PASSWORD);
    const out = await stack.call('DELETE', '/api/session', withCookie(cookie));
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.getSetCookie()[0]).toMatch(/^__Host-tp_session=; .*Max-Age=0/);
    expect((await stack.call('GET', '/api/session', withCookie(cookie))).status).toBe(401);
    expect((await stack.call('GET', '/api/tokens', withCookie(cookie))).status).toBe(401);
  });

  it('enforces the idle timeout on every request', async () => {
    const cookie = await stack.login(member.email, PASSWORD);
    await setSessionTimes(cookie, { last_seen_at: minutesAgo(29) });
    expect((await stack.call('GET', '/api/session', withCookie(cookie))).status).toBe(200);
    await setSessionTimes(cookie, { last_seen_at: minutesAgo(31) });
    expect((await stack.call('GET', '/api/session', withCookie(cookie))).status).toBe(401);
  });

  it('slides the idle window when the session is used', async () => {
    const cookie = await stack.login(member.email, PASSWORD);
    await setSessionTimes(cookie, { last_seen_at: minutesAgo(20) });
    // Against the time of the call, not a margin after it: a slow machine cannot fail this.
    const before = Date.now();
    await stack.call('GET', '/api/session', withCookie(cookie));
    const s = await getSession(sessionDigest(cookie.split('=')[1]!));
    expect(Date.parse(s!.last_seen_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(s!.last_seen_at)).toBeLessThanOrEqual(Date.now());
  });

  it('enforces the absolute lifetime even for an active session', async () => {
    const cookie = await stack.login(member.email, PASSWORD);
    await setSessionTimes(cookie, { created_at: minutesAgo(12 * 60 + 1), last_seen_at: minutesAgo(1) });
    expect((await stack.call('GET', '/api/session', withCookie(cookie))).status).toBe(401);
  });
});

describe('CSRF', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await stack.login(admin.email, PASSWORD);
  });
  const body = { name: 'csrf', scopes: ['candidates:read'] };

  it('refuses cross-site writes by Origin or Sec-Fetch-Site with 403', async () => {
    const attempts: Record<string, string>[] = [{ Origin: 'https://evil.example' }, { Origin: 'null' }, { 'Sec-Fetch-Site': 'cross-site' }];
    for (const headers of attempts) {
      const res = await stack.call('POST', '/api/tokens', { body, ...withCookie(cookie, headers) });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toEqual({ error: 'cross-site request refused', code: 'forbidden' });
    }
    const logout = await stack.call('DELETE', '/api/session', withCookie(cookie, { Origin: 'https://evil.example' }));
    expect(logout.status).toBe(403);
    const login = await stack.call('POST', '/api/session', {
      body: { email: admin.email, password: PASSWORD },
      headers: { Origin: 'https://evil.example' },
    });
    expect(login.status).toBe(403);
  });

  it('accepts same-origin browsers and clients that send no Origin', async () => {
    const host = new URL(stack.url).host;
    const same = await stack.call('POST', '/api/tokens', {
      body,
      ...withCookie(cookie, { Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' }),
    });
    expect(same.status).toBe(201);
    const cli = await stack.call('POST', '/api/tokens', { body, ...withCookie(cookie) });
    expect(cli.status).toBe(201);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await stack.call('POST', '/api/tokens', {
      rawBody: 'name=x&scopes=*',
      ...withCookie(cookie, { 'Content-Type': 'application/x-www-form-urlencoded' }),
    });
    expect(res.status).toBe(415);
    expect(res.body.error).toMatch(/application\/json/);
  });
});

describe('API tokens in the workspace settings', () => {
  let adminCookie: string;
  let memberCookie: string;
  beforeAll(async () => {
    adminCookie = await stack.login(admin.email, PASSWORD);
    memberCookie = await stack.login(member.email, PASSWORD);
  });

  it('mints a scoped token shown once, which works on /api/v1 within its scopes only', async () => {
    const res = await stack.call('POST', '/api/tokens', {
      body: { name: 'CI reader', scopes: ['candidates:read'] },
      ...withCookie(memberCookie),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: 'CI reader',
      scopes: ['candidates:read'],
      token: expect.stringMatching(/^tps_/),
      created_at: expect.any(String),
      kind: 'personal',
      expires_at: expect.any(String),
    });
    const token = res.body.data.token;
    expect((await stack.call('GET', '/api/v1/candidates', { token })).status).toBe(200);
    expect((await stack.call('GET', '/api/v1/pipeline', { token })).status).toBe(403);
    const listed = await stack.call('GET', '/api/tokens', withCookie(memberCookie));
    const mine = listed.body.data.find((t: { id: string }) => t.id === res.body.data.id);
    expect(mine).toEqual({
      id: res.body.data.id,
      name: 'CI reader',
      scopes: ['candidates:read'],
      hint: `tps_…${token.slice(-4)}`,
      created_at: res.body.data.created_at,
      last_used_at: expect.any(String),
      created_by: { id: member.id, email: member.email },
      kind: 'personal',
      expires_at: res.body.data.expires_at,
    });
  });

  it('lets only admins grant *', async () => {
    const denied = await stack.call('POST', '/api/tokens', { body: { name: 'all', scopes: ['*'] }, ...withCookie(memberCookie) });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      error: "a recruiter may not grant *: a token can do at most what its creator's role may",
      code: 'forbidden',
      field: 'scopes',
    });
    const granted = await stack.call('POST', '/api/tokens', { body: { name: 'all', scopes: ['*'] }, ...withCookie(adminCookie) });
    expect(granted.status).toBe(201);
  });

  it('validates names and scopes against the spec list', async () => {
    for (const [body, message] of [
      [{ name: 'x', scopes: ['candidates:delete'] }, /scopes/],
      [{ name: 'x', scopes: [] }, /at least one scope/],
      [{ name: 'x', scopes: 'candidates:read' }, /array/],
      [{ scopes: ['candidates:read'] }, /name is required/],
      [{ name: '', scopes: ['candidates:read'] }, /name must not be empty/],
    ] as const) {
      const res = await stack.call('POST', '/api/tokens', { body, ...withCookie(adminCookie) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });

  it('revokes a token: the authorizer stops accepting it once its cache expires', async () => {
    const created = await stack.call('POST', '/api/tokens', {
      body: { name: 'short-lived', scopes: ['pipeline:read'] },
      ...withCookie(adminCookie),
    });
    const token = created.body.data.token;
    expect((await stack.call('GET', '/api/v1/pipeline', { token })).status).toBe(200);
    const revoked = await stack.call('DELETE', `/api/tokens/${created.body.data.id}`, withCookie(adminCookie));
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    await new Promise((r) => setTimeout(r, 1_100)); // this file's cache TTL is 1 s (deployed: 60 s)
    const after = await stack.call('GET', '/api/v1/pipeline', { token });
    expect(after.status).toBe(401);
    const listed = await stack.call('GET', '/api/tokens', withCookie(adminCookie));
    expect(listed.body.data.map((t: { id: string }) => t.id)).not.toContain(created.body.data.id);
    const again = await stack.call('DELETE', `/api/tokens/${created.body.data.id}`, withCookie(adminCookie));
    expect(again.status).toBe(404);
  });

  it('answers 400 for a token id that is not a UUID', async () => {
    const res = await stack.call('DELETE', '/api/tokens/not-a-uuid', withCookie(adminCookie));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/id must be a UUID/);
  });

  it("keeps tenants apart: A's session neither sees nor revokes B's tokens", async () => {
    const bAdmin = await b.user('admin');
    const bCookie = await stack.login(bAdmin.email, PASSWORD);
    const bToken = await stack.call('POST', '/api/tokens', {
      body: { name: 'b-token', scopes: ['pipeline:read'] },
      ...withCookie(bCookie),
    });
    const aList = await stack.call('GET', '/api/tokens', withCookie(adminCookie));
    expect(aList.body.data.map((t: { id: string }) => t.id)).not.toContain(bToken.body.data.id);
    expect(aList.body.data.every((t: { name: string }) => t.name !== 'b-token')).toBe(true);
    const cross = await stack.call('DELETE', `/api/tokens/${bToken.body.data.id}`, withCookie(adminCookie));
    expect(cross.status).toBe(404);
    expect((await stack.call('GET', '/api/v1/pipeline', { token: bToken.body.data.token })).status).toBe(200);
    const bSession = await stack.call('GET', '/api/session', withCookie(bCookie));
    expect(bSession.body.data.tenant.slug).toBe(b.slug);
  });
});

describe('secrets', () => {
  it('never shows a token, a digest, a password hash or a session id in GET responses or logs', async () => {
    const { chunks: out, restore } = captureOutput({ echo: true });
    const bodies: string[] = [];
    let secrets: string[];
    try {
      const cookie = await stack.login(admin.email, PASSWORD);
      const created = await stack.call('POST', '/api/tokens', { body: { name: 'secret-check', scopes: ['*'] }, ...withCookie(cookie) });
      const token = created.body.data.token;
      await stack.call('GET', '/api/v1/candidates', { token });
      for (const path of ['/api/tokens', '/api/session']) {
        const res = await stack.call('GET', path, withCookie(cookie));
        expect(res.status).toBe(200);
        bodies.push(res.text, JSON.stringify([...res.headers]));
      }
      await stack.call('POST', '/api/session', { body: { email: admin.email, password: 'wrong password here' } });
      const sessionId = cookie.split('=')[1]!;
      const hash = (await findUserByEmail(admin.email))!.password_hash;
      secrets = [token, tokenDigest(token), sessionId, sessionDigest(sessionId), PASSWORD, 'wrong password here', hash.split('$').pop()!];
    } finally {
      restore();
    }
    const seen = [...bodies, ...out, ...stack.logs].join('\n');
    expect(bodies.length).toBe(4);
    for (const secret of secrets) expect(seen.includes(secret), `leaked ${secret.slice(0, 8)}…`).toBe(false);
  });
});
