/**
 * The own password change behind the console (PUT /api/session/password): success and what it
 * does to the other sessions and sign-in, malformed input, throttled guesses and cross-site
 * requests; and that the console routes' temporary and new passwords never reach a log line or
 * another response.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { captureOutput } from '../../helpers/capture';
import { PASSWORD } from '../../helpers/stack';
import { as, cookieMemberA, stack, useConsoleFixture, workspace } from './fixture';

useConsoleFixture();

describe('PUT /api/session/password', () => {
  it('changes the password: the other sessions end, this one stays, the old password stops working', async () => {
    const { t } = await workspace();
    const u = await t.user('recruiter');
    const here = await stack.login(u.email, PASSWORD);
    const elsewhere = await stack.login(u.email, PASSWORD);
    const res = await stack.call(
      'PUT',
      '/api/session/password',
      as(here, { current_password: PASSWORD, new_password: 'an entirely new passphrase' }),
    );
    expect([res.status, res.body]).toEqual([200, { success: true }]);
    expect((await stack.call('GET', '/api/session', as(here))).status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(elsewhere))).status).toBe(401);
    expect((await stack.call('POST', '/api/session', { body: { email: u.email, password: PASSWORD } })).status).toBe(401);
    expect(await stack.login(u.email, 'an entirely new passphrase')).toMatch(/^__Host-tp_session=/);
  });

  it('refuses a wrong current password, a short or over-long new one and the same one, and changes nothing', async () => {
    const { t } = await workspace();
    const u = await t.user('recruiter');
    const c = await stack.login(u.email, PASSWORD);
    for (const [body, message] of [
      [{ current_password: 'not it at all', new_password: 'a perfectly long one' }, /^current_password is incorrect$/],
      [{ current_password: PASSWORD, new_password: 'short' }, /new_password must be at least 12 characters/],
      [{ current_password: PASSWORD, new_password: 'x'.repeat(257) }, /new_password must be at most 256 characters/],
      [{ current_password: PASSWORD, new_password: PASSWORD }, /new_password must differ/],
      [{ new_password: 'a perfectly long one' }, /current_password is required/],
      [{ current_password: PASSWORD, new_password: 'a perfectly long one', confirm: 'x' }, /unknown body field "confirm"/],
    ] as const) {
      const res = await stack.call('PUT', '/api/session/password', as(c, body));
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, expect.stringMatching(message)]);
    }
    expect(await stack.login(u.email, PASSWORD)).toMatch(/^__Host-tp_session=/);
  });

  it('wrong current passwords are throttled like sign-ins, so a stolen session cannot guess it', async () => {
    const { t } = await workspace();
    const u = await t.user('recruiter');
    const c = await stack.login(u.email, PASSWORD);
    for (let i = 0; i < 5; i++) {
      const res = await stack.call(
        'PUT',
        '/api/session/password',
        as(c, { current_password: `guess ${i}`, new_password: 'a perfectly long one' }),
      );
      expect(res.status).toBe(400);
    }
    const locked = await stack.call(
      'PUT',
      '/api/session/password',
      as(c, { current_password: PASSWORD, new_password: 'a perfectly long one' }),
    );
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('is refused cross-site', async () => {
    const res = await stack.call('PUT', '/api/session/password', {
      ...as(cookieMemberA, { current_password: PASSWORD, new_password: 'a perfectly long one' }),
      headers: { Cookie: cookieMemberA, Origin: 'https://evil.example' },
    });
    expect([res.status, res.body]).toEqual([403, { error: 'cross-site request refused', code: 'forbidden' }]);
  });
});

describe('secrets of the console routes', () => {
  it('temporary and new passwords never reach a log line or another response', async () => {
    const { chunks: output, restore } = captureOutput({ console: true });
    const logStart = stack.logs.length;
    try {
      const { t, cookie } = await workspace();
      const added = await stack.call('POST', '/api/members', as(cookie, { email: `s-${randomUUID()}@example.com`, role: 'recruiter' }));
      const m = added.body.data.member;
      const reset = await stack.call('POST', `/api/members/${m.id}/reset-password`, as(cookie));
      const secrets = [added.body.data.temporary_password, reset.body.data.temporary_password, 'a secret new passphrase'];
      const theirs = await stack.login(m.email, secrets[1]);
      await stack.call('PUT', '/api/session/password', as(theirs, { current_password: secrets[1], new_password: secrets[2] }));
      await stack.call('PUT', '/api/session/password', as(theirs, { current_password: 'wrong wrong wrong', new_password: secrets[2] }));
      const reads = [
        await stack.call('GET', '/api/members', as(cookie)),
        await stack.call('GET', '/api/session', as(theirs)),
        await stack.call('GET', '/api/overview', as(cookie)),
      ];
      const everything = [...output, ...stack.logs.slice(logStart), ...reads.map((r) => r.text)].join('\n');
      for (const secret of secrets) expect(everything).not.toContain(secret);
      expect(t.id).toBeTruthy();
    } finally {
      restore();
    }
  });
});
