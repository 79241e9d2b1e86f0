/**
 * Two-factor sign-in through the local gateway and the real session authorizer: enrolment (a
 * secret shown once, confirmed by a code, ten recovery codes shown once), the second sign-in step
 * (a half-signed-in session reaches nothing else; a code is good once; a recovery code is spent),
 * wrong codes counted by the sign-in throttle, the workspace policy enforced by the authorizer,
 * and an admin's audited reset. Codes are computed from the secret with otplib, as an app does:
 * the current period's code, or the next period's (inside the one-period tolerance) when the
 * current one was already used.
 */
import { generate } from 'otplib';
import { GATEWAY_ERRORS } from '../../../lib/gateway-responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAudit } from '../../helpers/audit';
import { PASSWORD, startStack, type Stack } from '../../helpers/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
const cookieOf = (res: { headers: Headers }) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('__Host-tp_session='))
    ?.split(';')[0];
/** The code of the period `offset` periods from now. */
const codeAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });
/** A six-digit code that is not `code`. */
/** The gateway's own 403: the session authorizer's policy refused the route, no function ran. */
const POLICY_REFUSAL = { error: GATEWAY_ERRORS.accessDenied.error, code: GATEWAY_ERRORS.accessDenied.code };
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

async function signIn(email: string) {
  const res = await stack.call('POST', '/api/session', { body: { email, password: PASSWORD } });
  expect(res.status, res.text).toBe(200);
  return { res, cookie: cookieOf(res)! };
}

/** Enrol the signed-in user: the secret and the recovery codes. */
async function enrol(cookie: string) {
  const started = await stack.call('POST', '/api/account/two-factor', as(cookie));
  expect(started.status, started.text).toBe(200);
  const { secret } = started.body.data as { secret: string };
  const confirmed = await stack.call('POST', '/api/account/two-factor/confirm', as(cookie, { code: await codeAt(secret) }));
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret, recoveryCodes: confirmed.body.data.recovery_codes as string[], confirmed };
}

async function workspace() {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  const member = await t.user('recruiter');
  return { t, admin: { ...admin, cookie: await stack.login(admin.email, PASSWORD) }, member };
}

const audited = async (cookie: string, action: string) => {
  await settleAudit();
  return (await stack.call('GET', `/api/audit?action=${action}`, as(cookie))).body.data as Array<Record<string, any>>;
};

describe('enrolment', () => {
  it('a secret, otpauth URI and QR code, confirmed by a code; ten recovery codes shown once; the secret never answered again', async () => {
    const { admin } = await workspace();
    const before = await stack.call('GET', '/api/account/two-factor', as(admin.cookie));
    expect(before.body.data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0, required: false });
    const started = await stack.call('POST', '/api/account/two-factor', as(admin.cookie));
    const { secret, otpauth_uri, qr_svg } = started.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(
      `otpauth://totp/Talent%20Pipeline:${encodeURIComponent(admin.email)}?secret=${secret}&issuer=Talent%20Pipeline`,
    );
    expect(qr_svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Not on yet: a wrong code is refused, and the sign-in still needs no code.
    const wrong = await stack.call('POST', '/api/account/two-factor/confirm', as(admin.cookie, { code: otherThan(await codeAt(secret)) }));
    expect([wrong.status, wrong.body.field]).toEqual([400, 'code']);
    const confirmed = await stack.call('POST', '/api/account/two-factor/confirm', as(admin.cookie, { code: await codeAt(secret) }));
    expect(confirmed.status, confirmed.text).toBe(200);
    const codes = confirmed.body.data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    // An already enrolled session keeps its cookie.
    expect(cookieOf(confirmed)).toBeUndefined();
    const after = await stack.call('GET', '/api/account/two-factor', as(admin.cookie));
    expect(after.body.data).toMatchObject({ enabled: true, recovery_codes_left: 10, required: false });
    expect((await stack.call('POST', '/api/account/two-factor', as(admin.cookie))).status).toBe(409);
    // Nothing a user can read carries the secret or a recovery code again.
    for (const path of ['/api/account/two-factor', '/api/session', '/api/members', '/api/audit']) {
      const text = (await stack.call('GET', path, as(admin.cookie))).text;
      expect(text, path).not.toContain(secret);
      for (const c of codes) expect(text, path).not.toContain(c);
    }
    expect(stack.logs.join('\n')).not.toContain(secret);
    const session = await stack.call('GET', '/api/session', as(admin.cookie));
    expect(session.body.data.user.two_factor_enabled).toBe(true);
    const [entry] = await audited(admin.cookie, 'member.two_factor_enabled');
    expect(entry).toMatchObject({ actor: { type: 'user', id: admin.id }, target: { type: 'member', id: admin.id } });
  });
});

describe('signing in with two-factor', () => {
  it('the password gives a half-signed-in session that reaches nothing but the second step; a code finishes it under a new cookie', async () => {
    const { admin } = await workspace();
    const { secret } = await enrol(admin.cookie);
    const { res, cookie: pending } = await signIn(admin.email);
    expect(res.body.data.pending).toBe('two_factor');
    // Refused by the session authorizer's policy before any function runs.
    for (const [method, path] of [
      ['GET', '/api/members'],
      ['GET', '/api/candidates'],
      ['GET', '/api/account/two-factor'],
      ['PUT', '/api/settings/two-factor'],
    ] as const) {
      const refused = await stack.call(method, path, as(pending, method === 'PUT' ? { required_for: 'off' } : undefined));
      expect([refused.status, refused.body], `${method} ${path}`).toEqual([403, POLICY_REFUSAL]);
    }
    expect((await stack.call('GET', '/api/session', as(pending))).body.data.pending).toBe('two_factor');
    // The enrolment spent this period's code: the next period's is the app's next one.
    const next = await codeAt(secret, 1);
    const wrong = await stack.call('POST', '/api/session/two-factor', as(pending, { code: otherThan(next) }));
    expect([wrong.status, wrong.body]).toEqual([400, { error: 'code is incorrect or already used', code: 'invalid_field', field: 'code' }]);
    const done = await stack.call('POST', '/api/session/two-factor', as(pending, { code: next }));
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.pending).toBeUndefined();
    const full = cookieOf(done)!;
    expect(full).not.toBe(pending);
    expect((await stack.call('GET', '/api/members', as(full))).status).toBe(200);
    // The half-signed-in session is gone.
    expect((await stack.call('GET', '/api/session', as(pending))).status).toBe(401);
    const [signedIn] = await audited(full, 'session.signed_in');
    expect(signedIn!.changes).toEqual([{ field: 'two_factor', after: 'totp' }]);
  });

  it('a code is never accepted twice: the same code in a second sign-in is refused', async () => {
    const { admin } = await workspace();
    const { secret } = await enrol(admin.cookie);
    // The enrolment spent the current period's code.
    const first = await signIn(admin.email);
    const replay = await stack.call('POST', '/api/session/two-factor', as(first.cookie, { code: await codeAt(secret) }));
    expect([replay.status, replay.body.field]).toEqual([400, 'code']);
    const next = await codeAt(secret, 1);
    expect((await stack.call('POST', '/api/session/two-factor', as(first.cookie, { code: next }))).status).toBe(200);
    const second = await signIn(admin.email);
    const again = await stack.call('POST', '/api/session/two-factor', as(second.cookie, { code: next }));
    expect([again.status, again.body.field]).toEqual([400, 'code']);
  });

  it('a recovery code signs in once; the count goes down', async () => {
    const { admin } = await workspace();
    const { recoveryCodes } = await enrol(admin.cookie);
    const first = await signIn(admin.email);
    // Typed in capitals and without dashes: still the code.
    const typed = recoveryCodes[3]!.replace(/-/g, '').toUpperCase();
    const used = await stack.call('POST', '/api/session/two-factor', as(first.cookie, { recovery_code: typed }));
    expect(used.status, used.text).toBe(200);
    const full = cookieOf(used)!;
    expect((await stack.call('GET', '/api/account/two-factor', as(full))).body.data.recovery_codes_left).toBe(9);
    const second = await signIn(admin.email);
    const again = await stack.call('POST', '/api/session/two-factor', as(second.cookie, { recovery_code: recoveryCodes[3] }));
    expect([again.status, again.body.field]).toEqual([400, 'recovery_code']);
    const both = await stack.call(
      'POST',
      '/api/session/two-factor',
      as(second.cookie, { code: '123456', recovery_code: recoveryCodes[4] }),
    );
    expect(both.status).toBe(400);
  });

  it('wrong codes count toward the sign-in throttle: the password and four wrong codes lock the account for that address', async () => {
    const { admin } = await workspace();
    const { secret } = await enrol(admin.cookie);
    const { cookie: pending } = await signIn(admin.email);
    const right = await codeAt(secret, 1);
    const wrongCode = otherThan(right);
    for (let i = 0; i < 4; i++)
      expect((await stack.call('POST', '/api/session/two-factor', as(pending, { code: wrongCode }))).status).toBe(400);
    const locked = await stack.call('POST', '/api/session/two-factor', as(pending, { code: right }));
    expect([locked.status, locked.body.code]).toEqual([429, 'rate_limited']);
    expect((await stack.call('POST', '/api/session', { body: { email: admin.email, password: PASSWORD } })).status).toBe(429);
    const failures = await audited(admin.cookie, 'session.sign_in_failed');
    expect(failures.map((f) => f.changes[0].after)).toEqual(['wrong_code', 'wrong_code', 'wrong_code', 'wrong_code']);
    expect(failures.filter((f) => f.changes.some((c: { field: string }) => c.field === 'lockout_started'))).toHaveLength(1);
  });
});

describe('the workspace policy', () => {
  it('an admin must use two-factor before requiring it; members must enrol right after the password, enforced by the authorizer', async () => {
    const { admin, member } = await workspace();
    const memberCookie = await stack.login(member.email, PASSWORD);
    const refused = await stack.call('PUT', '/api/settings/two-factor', as(admin.cookie, { required_for: 'everyone' }));
    expect([refused.status, refused.body.field]).toEqual([409, 'required_for']);
    expect((await stack.call('PUT', '/api/settings/two-factor', as(memberCookie, { required_for: 'off' }))).status).toBe(403);
    await enrol(admin.cookie);
    const set = await stack.call('PUT', '/api/settings/two-factor', as(admin.cookie, { required_for: 'everyone' }));
    expect([set.status, set.body.data]).toEqual([200, { required_for: 'everyone' }]);
    expect((await stack.call('GET', '/api/settings/two-factor', as(admin.cookie))).body.data).toEqual({ required_for: 'everyone' });
    // The member's session from before the policy ended.
    expect((await stack.call('GET', '/api/session', as(memberCookie))).status).toBe(401);
    const { res, cookie: pending } = await signIn(member.email);
    expect(res.body.data.pending).toBe('two_factor_enrolment');
    expect((await stack.call('GET', '/api/members', as(pending))).body).toEqual(POLICY_REFUSAL);
    expect((await stack.call('GET', '/api/candidates', as(pending))).body).toEqual(POLICY_REFUSAL);
    expect((await stack.call('POST', '/api/session/two-factor', as(pending, { code: '000000' }))).body).toEqual(POLICY_REFUSAL);
    expect((await stack.call('GET', '/api/account/two-factor', as(pending))).body.data).toMatchObject({ enabled: false, required: true });
    const { confirmed } = await enrol(pending);
    const full = cookieOf(confirmed)!;
    expect(full).toBeDefined();
    expect((await stack.call('GET', '/api/candidates', as(full))).status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(pending))).status).toBe(401);
    // Required: it cannot be turned off.
    const off = await stack.call('POST', '/api/account/two-factor/disable', as(full, { password: PASSWORD }));
    expect([off.status, off.body.code]).toEqual([409, 'conflict']);
    const [entry] = await audited(admin.cookie, 'settings.two_factor_changed');
    expect(entry).toMatchObject({
      actor: { type: 'user', id: admin.id },
      changes: [
        { field: 'required_for', before: 'off', after: 'everyone' },
        { field: 'members_to_enrol', after: 1 },
      ],
    });
  });

  it('"admins": a member signs in without a code; an admin who has not enrolled cannot require it', async () => {
    const { admin, member } = await workspace();
    await enrol(admin.cookie);
    expect((await stack.call('PUT', '/api/settings/two-factor', as(admin.cookie, { required_for: 'admins' }))).status).toBe(200);
    const { res } = await signIn(member.email);
    expect(res.body.data.pending).toBeUndefined();
  });
});

describe('turning it off and an admin reset', () => {
  it('the user turns it off with the password; a wrong password is refused', async () => {
    const { admin } = await workspace();
    await enrol(admin.cookie);
    const wrong = await stack.call('POST', '/api/account/two-factor/disable', as(admin.cookie, { password: 'not the password' }));
    expect([wrong.status, wrong.body.field]).toEqual([400, 'password']);
    expect((await stack.call('POST', '/api/account/two-factor/disable', as(admin.cookie, { password: PASSWORD }))).status).toBe(200);
    expect((await signIn(admin.email)).res.body.data.pending).toBeUndefined();
    expect(await audited(admin.cookie, 'member.two_factor_disabled')).toHaveLength(1);
  });

  it("an admin resets a member's two-factor: audited, the member's sessions end, they sign in with the password alone", async () => {
    const { t, admin, member } = await workspace();
    const memberCookie = await stack.login(member.email, PASSWORD);
    await enrol(memberCookie);
    // Members may not reset anyone's.
    expect((await stack.call('POST', `/api/members/${admin.id}/reset-two-factor`, as(memberCookie))).status).toBe(403);
    const reset = await stack.call('POST', `/api/members/${member.id}/reset-two-factor`, as(admin.cookie));
    expect([reset.status, reset.body]).toEqual([200, { success: true }]);
    expect((await stack.call('GET', '/api/session', as(memberCookie))).status).toBe(401);
    const listed = (await stack.call('GET', '/api/members', as(admin.cookie))).body.data as Array<Record<string, unknown>>;
    expect(listed.find((m) => m.id === member.id)?.two_factor_enabled).toBe(false);
    expect((await signIn(member.email)).res.body.data.pending).toBeUndefined();
    const [entry] = await audited(admin.cookie, 'member.two_factor_reset');
    expect(entry).toMatchObject({
      actor: { type: 'user', id: admin.id },
      target: { type: 'member', id: member.id },
      changes: [{ field: 'two_factor_enabled', before: true, after: false }],
    });
    // Another workspace's admin cannot reach this member: 404, and nothing changes.
    const other = await stack.tenant();
    const otherAdmin = await other.user('admin');
    const otherCookie = await stack.login(otherAdmin.email, PASSWORD);
    const memberAgain = await stack.login(member.email, PASSWORD);
    await enrol(memberAgain);
    expect((await stack.call('POST', `/api/members/${member.id}/reset-two-factor`, as(otherCookie))).status).toBe(404);
    expect((await stack.call('GET', '/api/account/two-factor', as(memberAgain))).body.data.enabled).toBe(true);
    expect(t.id).not.toBe(other.id);
  });
});
