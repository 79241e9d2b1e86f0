/**
 * The session routes behind the workspace console: overview, pipeline settings, members and the
 * own password change. For each: success, malformed input, roles (an admin may, a member may
 * not), another workspace's ids (404) and what the change does to sessions and sign-in.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REJECTION_REASONS, DEFAULT_STUCK_DAYS, STUCK_STAGES } from '../../lib/model';
import { captureOutput } from '../helpers/capture';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { createRequisition } from '../../lib/store/requisitions';
import { insertCandidate } from '../../lib/domain/candidate-writes';
import { newId } from '../../lib/ids';

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let adminA: { id: string; email: string };
let memberA: { id: string; email: string };
let adminB: { id: string; email: string };
let cookieAdminA: string;
let cookieMemberA: string;
let cookieAdminB: string;

beforeAll(async () => {
  stack = await startStack();
  [a, b] = [await stack.tenant(), await stack.tenant()];
  [adminA, memberA, adminB] = [await a.user('admin'), await a.user('recruiter'), await b.user('admin')];
  [cookieAdminA, cookieMemberA, cookieAdminB] = [
    await stack.login(adminA.email, PASSWORD),
    await stack.login(memberA.email, PASSWORD),
    await stack.login(adminB.email, PASSWORD),
  ];
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
const DAY_MS = 86_400_000;

/** A tenant of its own with one admin signed in, for tests that change membership. */
async function workspace() {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  return { t, admin, cookie: await stack.login(admin.email, PASSWORD) };
}

describe('GET /api/overview', () => {
  it('answers the pipeline summary and the open requisitions of the caller workspace, to members too', async () => {
    const token = await a.token(['*']);
    const open = await createRequisition(a.id, { title: 'Overview Engineer', status: 'open' });
    await createRequisition(a.id, { title: 'Paused Role', status: 'on_hold' });
    const created = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: 'Ada Overview', req_id: open.id, stage: 'offer_sent' },
    });
    expect(created.status).toBe(201);

    const res = await stack.call('GET', '/api/overview', as(cookieMemberA));
    expect(res.status).toBe(200);
    const bearer = await stack.call('GET', '/api/v1/pipeline', { token });
    expect(res.body.data.pipeline).toEqual(bearer.body.data);
    expect(res.body.data.requisitions.map((r: { title: string }) => r.title)).toEqual(['Overview Engineer']);
    expect(res.body.data.requisitions[0]).toMatchObject({ id: open.id, candidate_count: '1', offers_pending: '0' });
    expect(res.body.data.open_requisitions).toBe(1);
  });

  it('never shows another workspace', async () => {
    const res = await stack.call('GET', '/api/overview', as(cookieAdminB));
    expect(res.status).toBe(200);
    expect(res.body.data.requisitions).toEqual([]);
    expect(res.body.data.pipeline.total_active).toBe(0);
  });

  it('needs a session: a token is not one', async () => {
    expect((await stack.call('GET', '/api/overview')).status).toBe(401);
    expect((await stack.call('GET', '/api/overview', { token: await a.token(['*']) })).status).toBe(401);
  });
});

describe('pipeline settings', () => {
  const defaults = Object.fromEntries(STUCK_STAGES.map((s) => [s, DEFAULT_STUCK_DAYS[s]]));

  it('shows the defaults for every stage that can be stuck, to members too', async () => {
    const { t, cookie } = await workspace();
    const member = await t.user('recruiter');
    for (const c of [cookie, await stack.login(member.email, PASSWORD)]) {
      const res = await stack.call('GET', '/api/settings/pipeline', as(c));
      expect(res.status).toBe(200);
      // The retention rules sit beside the thresholds, both off by default.
      expect(res.body).toEqual({
        data: {
          stuck_days: defaults,
          defaults,
          retention: { rejected_days: null, inactive_days: null },
          rejection_reasons: DEFAULT_REJECTION_REASONS,
          require_rejection_reason: false,
          auto_interview_stages: true,
          offer_required: false,
        },
      });
    }
  });

  it('an admin sets thresholds; stages left out go back to their default; 0 turns a stage off', async () => {
    const { cookie } = await workspace();
    const first = await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { applied: 1, interviewed: 0 } }));
    expect(first.status).toBe(200);
    expect(first.body.data.stuck_days).toEqual({ ...defaults, applied: 1, interviewed: 0 });
    // PUT answers the retention rules only when it set them; GET always has them.
    expect(first.body.data).not.toHaveProperty('retention');
    expect((await stack.call('GET', '/api/settings/pipeline', as(cookie))).body).toEqual({
      data: {
        ...first.body.data,
        retention: { rejected_days: null, inactive_days: null },
        rejection_reasons: DEFAULT_REJECTION_REASONS,
        require_rejection_reason: false,
        auto_interview_stages: true,
        offer_required: false,
      },
    });
    const second = await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { onboarding: 30 } }));
    expect(second.body.data.stuck_days).toEqual({ ...defaults, onboarding: 30 });
    const reset = await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: {} }));
    expect(reset.body.data.stuck_days).toEqual(defaults);
  });

  it('a threshold change shows in the overview at once', async () => {
    const { t, cookie } = await workspace();
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS - 60_000).toISOString();
    const id = newId();
    await insertCandidate(t.id, {
      id,
      name: 'Waiting Walter',
      stage: 'applied',
      created_at: twoDaysAgo,
      updated_at: twoDaysAgo,
      stage_entered_at: twoDaysAgo,
    });
    const stuckIds = async () =>
      (await stack.call('GET', '/api/overview', as(cookie))).body.data.pipeline.stuck_candidates.map((c: { id: string }) => c.id);
    expect(await stuckIds()).toEqual([]); // applied: 3 days by default
    await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { applied: 2 } }));
    expect(await stuckIds()).toEqual([id]);
    await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { applied: 0 } }));
    expect(await stuckIds()).toEqual([]);
  });

  it('a member may read but not change them', async () => {
    const before = await stack.call('GET', '/api/settings/pipeline', as(cookieMemberA));
    const res = await stack.call('PUT', '/api/settings/pipeline', as(cookieMemberA, { stuck_days: { applied: 9 } }));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/^only workspace admins may set the stuck thresholds/);
    expect((await stack.call('GET', '/api/settings/pipeline', as(cookieMemberA))).body).toEqual(before.body);
  });

  it('refuses what is not a whole number of days from 0 to 365, an unknown stage, or another shape, and keeps the settings', async () => {
    const { cookie } = await workspace();
    await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { applied: 5 } }));
    for (const [body, message] of [
      [{ stuck_days: { applied: -1 } }, /stuck_days\.applied must be between 0 and 365/],
      [{ stuck_days: { applied: 366 } }, /stuck_days\.applied must be between 0 and 365/],
      [{ stuck_days: { applied: 2.5 } }, /stuck_days\.applied must be a whole number of days/],
      [{ stuck_days: { applied: '3' } }, /stuck_days\.applied must be a whole number of days/],
      [{ stuck_days: { applied: null } }, /stuck_days\.applied must be a whole number of days/],
      [{ stuck_days: { placed: 3 } }, /unknown body field "placed"/],
      [{ stuck_days: { rejected: 3 } }, /unknown body field "rejected"/],
      [{ stuck_days: [] }, /stuck_days must be an object/],
      [{}, /stuck_days is required/],
      [{ stuck_days: {}, extra: 1 }, /unknown body field "extra"/],
    ] as const) {
      const res = await stack.call('PUT', '/api/settings/pipeline', as(cookie, body));
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, expect.stringMatching(message)]);
    }
    expect((await stack.call('GET', '/api/settings/pipeline', as(cookie))).body.data.stuck_days.applied).toBe(5);
  });

  it('changes only the caller workspace', async () => {
    const before = await stack.call('GET', '/api/settings/pipeline', as(cookieAdminB));
    await stack.call('PUT', '/api/settings/pipeline', as(cookieAdminA, { stuck_days: { ai_screened: 11 } }));
    expect((await stack.call('GET', '/api/settings/pipeline', as(cookieAdminB))).body).toEqual(before.body);
  });
});

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
