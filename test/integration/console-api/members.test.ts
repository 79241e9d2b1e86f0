/**
 * The console's members routes (session routes): the list, adding a member with a temporary
 * password, role changes, removal, password resets and lockouts. For each: success, malformed
 * input, roles (an admin may, a member may not), another workspace's ids (404) and what the
 * change does to the member's sessions and sign-in; the workspace always keeps an admin.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../../helpers/stack';
import { a, adminA, adminB, as, cookieAdminA, cookieAdminB, cookieMemberA, memberA, stack, useConsoleFixture, workspace } from './fixture';

useConsoleFixture();

describe('members', () => {
  it('lists every user of the workspace with roles, sorted by email, to members too, and no secrets', async () => {
    const res = await stack.call('GET', '/api/members', as(cookieMemberA));
    expect(res.status).toBe(200);
    const emails = res.body.data.map((m: { email: string }) => m.email);
    expect(emails).toEqual([...emails].sort());
    expect(res.body.data).toEqual(
      expect.arrayContaining([
        {
          id: adminA.id,
          email: adminA.email,
          role: 'admin',
          created_at: expect.any(String),
          must_change_password: false,
          deactivated_at: null,
          two_factor_enabled: false,
          time_zone: null,
        },
        {
          id: memberA.id,
          email: memberA.email,
          role: 'recruiter',
          created_at: expect.any(String),
          must_change_password: false,
          deactivated_at: null,
          two_factor_enabled: false,
          time_zone: null,
        },
      ]),
    );
    expect(emails).not.toContain(adminB.email);
    expect(res.text).not.toMatch(/scrypt|password_hash/);
  });

  it('an admin adds a member; the temporary password works once shown, and must be changed', async () => {
    const { cookie } = await workspace();
    const email = `New.Person-${randomUUID().slice(0, 6)}@Example.com`;
    const res = await stack.call('POST', '/api/members', as(cookie, { email, role: 'recruiter' }));
    expect(res.status).toBe(201);
    const { member, temporary_password } = res.body.data;
    expect(member).toEqual({
      id: expect.any(String),
      email: email.toLowerCase(),
      role: 'recruiter',
      created_at: expect.any(String),
      must_change_password: true,
      deactivated_at: null,
      two_factor_enabled: false,
      time_zone: null,
    });
    expect(temporary_password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const list = await stack.call('GET', '/api/members', as(cookie));
    expect(list.text).not.toContain(temporary_password);
    const theirs = await stack.login(email, temporary_password);
    const session = await stack.call('GET', '/api/session', as(theirs));
    expect(session.body.data.user).toMatchObject({ email: email.toLowerCase(), role: 'recruiter', must_change_password: true });
    // Changing it clears the flag.
    const changed = await stack.call(
      'PUT',
      '/api/session/password',
      as(theirs, { current_password: temporary_password, new_password: 'my own long passphrase' }),
    );
    expect(changed.status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(theirs))).body.data.user.must_change_password).toBe(false);
  });

  it('refuses a taken email (in any workspace) with 409, never saying which workspace, and bad bodies with 400', async () => {
    const { cookie } = await workspace();
    const taken = await stack.call('POST', '/api/members', as(cookie, { email: adminB.email.toUpperCase(), role: 'recruiter' }));
    expect([taken.status, taken.body.code, taken.text.includes(adminB.email)]).toEqual([409, 'email_unavailable', false]);
    for (const [body, message] of [
      [{ email: 'not an email', role: 'recruiter' }, /email must be an email address/],
      [{ email: 'x@example.com', role: 'owner' }, /role must be one of admin, recruiter, hiring_manager, interviewer/],
      [{ email: 'x@example.com' }, /role is required/],
      [{ role: 'recruiter' }, /email is required/],
      [{ email: 'x@example.com', role: 'recruiter', password: 'chosen' }, /unknown body field "password"/],
    ] as const) {
      const res = await stack.call('POST', '/api/members', as(cookie, body));
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, expect.stringMatching(message)]);
    }
  });

  it('a member sees the list but may do none of the admin actions', async () => {
    const target = await a.user('recruiter');
    const calls = [
      ['POST', '/api/members', { email: `m-${randomUUID()}@example.com`, role: 'admin' }],
      ['PATCH', `/api/members/${target.id}`, { role: 'admin' }],
      ['PATCH', `/api/members/${memberA.id}`, { role: 'admin' }], // not even for themselves
      ['DELETE', `/api/members/${target.id}`, undefined],
      ['POST', `/api/members/${target.id}/reset-password`, undefined],
      ['DELETE', `/api/members/${target.id}/lockout`, undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      const res = await stack.call(method, path, as(cookieMemberA, body));
      expect([res.status, res.body.error], `${method} ${path}`).toEqual([403, expect.stringMatching(/^only workspace admins may /)]);
    }
    const list = await stack.call('GET', '/api/members', as(cookieAdminA));
    expect(list.body.data.find((m: { id: string }) => m.id === target.id)).toMatchObject({ role: 'recruiter' });
    expect(list.body.data.find((m: { id: string }) => m.id === memberA.id)).toMatchObject({ role: 'recruiter' });
    // The target can still sign in: nothing was reset.
    expect(await stack.login(target.email, PASSWORD)).toMatch(/^__Host-tp_session=/);
  });

  it("another workspace's member, an unknown id and a malformed id", async () => {
    for (const [method, path, body] of [
      ['PATCH', `/api/members/${memberA.id}`, { role: 'admin' }],
      ['DELETE', `/api/members/${memberA.id}`, undefined],
      ['POST', `/api/members/${memberA.id}/reset-password`, undefined],
      ['DELETE', `/api/members/${memberA.id}/lockout`, undefined],
      ['PATCH', `/api/members/${randomUUID()}`, { role: 'admin' }],
    ] as const) {
      const res = await stack.call(method, path, as(cookieAdminB, body));
      expect([res.status, res.body], `${method} ${path}`).toEqual([404, { error: 'member not found', code: 'not_found' }]);
    }
    const bad = await stack.call('DELETE', '/api/members/not-a-uuid', as(cookieAdminB));
    expect([bad.status, bad.body]).toEqual([400, { error: 'id must be a UUID', code: 'invalid_field', field: 'id' }]);
    // Nothing happened to A's member.
    expect(await stack.login(memberA.email, PASSWORD)).toMatch(/^__Host-tp_session=/);
  });

  it("a raised role applies to the member's open sessions at once; a lowered one ends them", async () => {
    const { t, cookie } = await workspace();
    const m = await t.user('recruiter');
    const theirs = await stack.login(m.email, PASSWORD);
    expect((await stack.call('PUT', '/api/settings/pipeline', as(theirs, { stuck_days: {} }))).status).toBe(403);
    const promoted = await stack.call('PATCH', `/api/members/${m.id}`, as(cookie, { role: 'admin' }));
    expect([promoted.status, promoted.body.data]).toEqual([200, expect.objectContaining({ id: m.id, role: 'admin' })]);
    expect((await stack.call('PUT', '/api/settings/pipeline', as(theirs, { stuck_days: {} }))).status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(theirs))).body.data.user.role).toBe('admin');
    const demoted = await stack.call('PATCH', `/api/members/${m.id}`, as(cookie, { role: 'recruiter' }));
    expect(demoted.status).toBe(200);
    expect((await stack.call('PUT', '/api/settings/pipeline', as(theirs, { stuck_days: {} }))).status).toBe(401);
    const again = await stack.login(m.email, PASSWORD);
    expect((await stack.call('PUT', '/api/settings/pipeline', as(again, { stuck_days: {} }))).status).toBe(403);
  });

  it('the workspace never ends up without an admin: the last one cannot be demoted or removed', async () => {
    const { admin, cookie } = await workspace();
    const demote = await stack.call('PATCH', `/api/members/${admin.id}`, as(cookie, { role: 'recruiter' }));
    expect([demote.status, demote.body.error]).toEqual([409, expect.stringMatching(/at least one admin/)]);
    const remove = await stack.call('DELETE', `/api/members/${admin.id}`, as(cookie));
    expect(remove.status).toBe(409);
    // The same role again is a no-op, not a conflict.
    expect((await stack.call('PATCH', `/api/members/${admin.id}`, as(cookie, { role: 'admin' }))).status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(cookie))).body.data.user.role).toBe('admin');
  });

  it('two admins demoting each other at the same time: exactly one succeeds, one admin remains', async () => {
    for (let round = 0; round < 5; round++) {
      const { t, admin, cookie } = await workspace();
      const other = await t.user('admin');
      const otherCookie = await stack.login(other.email, PASSWORD);
      const [x, y] = await Promise.all([
        stack.call('PATCH', `/api/members/${other.id}`, as(cookie, { role: 'recruiter' })),
        stack.call('PATCH', `/api/members/${admin.id}`, as(otherCookie, { role: 'recruiter' })),
      ]);
      const statuses = [x.status, y.status].sort();
      // The loser is either refused as the last admin (409) or, having been demoted first, signed
      // out (401; 403 when its request got past the session check before the demotion).
      expect(statuses[0], `${x.text} ${y.text}`).toBe(200);
      expect([401, 403, 409], `${x.text} ${y.text}`).toContain(statuses[1]);
      const list = await stack.call('GET', '/api/members', as(x.status === 200 ? cookie : otherCookie));
      expect(list.body.data.filter((m: { role: string }) => m.role === 'admin')).toHaveLength(1);
    }
  });

  it('removing a member ends their sessions at once and frees the email', async () => {
    const { t, cookie } = await workspace();
    const m = await t.user('recruiter');
    const theirs = await stack.login(m.email, PASSWORD);
    expect((await stack.call('GET', '/api/session', as(theirs))).status).toBe(200);
    const res = await stack.call('DELETE', `/api/members/${m.id}`, as(cookie));
    expect([res.status, res.body]).toEqual([200, { success: true }]);
    expect((await stack.call('GET', '/api/tokens', as(theirs))).status).toBe(401);
    expect((await stack.call('POST', '/api/session', { body: { email: m.email, password: PASSWORD } })).status).toBe(401);
    expect((await stack.call('GET', '/api/members', as(cookie))).body.data.map((x: { id: string }) => x.id)).not.toContain(m.id);
    const again = await stack.call('POST', '/api/members', as(cookie, { email: m.email, role: 'recruiter' }));
    expect(again.status).toBe(201);
    expect((await stack.call('DELETE', `/api/members/${m.id}`, as(cookie))).status).toBe(404);
  });

  it('an admin may remove themselves while another admin remains', async () => {
    const { t, admin, cookie } = await workspace();
    await t.user('admin');
    expect((await stack.call('DELETE', `/api/members/${admin.id}`, as(cookie))).status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(cookie))).status).toBe(401);
  });

  it("a password reset ends the member's sessions, clears their lockouts and gives a temporary password", async () => {
    const { t, cookie } = await workspace();
    const m = await t.user('recruiter');
    const theirs = await stack.login(m.email, PASSWORD);
    for (let i = 0; i < 5; i++) await stack.call('POST', '/api/session', { body: { email: m.email, password: `wrong ${i}` } });
    expect((await stack.call('POST', '/api/session', { body: { email: m.email, password: PASSWORD } })).status).toBe(429);
    const res = await stack.call('POST', `/api/members/${m.id}/reset-password`, as(cookie));
    expect(res.status).toBe(200);
    const { temporary_password } = res.body.data;
    expect((await stack.call('GET', '/api/session', as(theirs))).status).toBe(401);
    expect((await stack.call('POST', '/api/session', { body: { email: m.email, password: PASSWORD } })).status).toBe(401);
    const fresh = await stack.login(m.email, temporary_password);
    expect((await stack.call('GET', '/api/session', as(fresh))).body.data.user.must_change_password).toBe(true);
  });

  it('clearing a lockout lets a locked-out member sign in at once', async () => {
    const { t, cookie } = await workspace();
    const m = await t.user('recruiter');
    const none = await stack.call('DELETE', `/api/members/${m.id}/lockout`, as(cookie));
    expect([none.status, none.body]).toEqual([200, { success: true, cleared: 0 }]);
    for (let i = 0; i < 5; i++) await stack.call('POST', '/api/session', { body: { email: m.email, password: `wrong ${i}` } });
    const locked = await stack.call('POST', '/api/session', { body: { email: m.email, password: PASSWORD } });
    expect(locked.status).toBe(429);
    const res = await stack.call('DELETE', `/api/members/${m.id}/lockout`, as(cookie));
    expect([res.status, res.body]).toEqual([200, { success: true, cleared: 1 }]);
    expect(await stack.login(m.email, PASSWORD)).toMatch(/^__Host-tp_session=/);
  });
});
