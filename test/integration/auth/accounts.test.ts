/**
 * Accounts across workspaces, and changes to them that must leave a record:
 * - adding a member never says that an address signs in to another workspace beyond one generic
 *   refusal, bounded per workspace and day, whatever the requests' timing;
 * - a wrong current password on the password change is audited like a failed sign-in;
 * - users, tokens and thresholds made with the admin CLI are audited as `system` (`admin-cli`).
 */
import { settleAudit } from '../../helpers/audit';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SessionPrincipal } from '../../../lib/domain/principal';
import { PASSWORD } from '../../helpers/stack';
import { cookie, stack, tenant, user, useAuthFixture } from './fixture';
import { MAX_REFUSED_ADDS_PER_DAY } from '../../../lib/store/member-adds';
import { addMember } from '../../../lib/domain/members';
import { cliCreateToken, cliCreateUser, cliSetStuckDays } from '../../../lib/domain/admin-cli';

useAuthFixture();

const as = (c: string, body?: unknown) => ({ headers: { Cookie: c }, ...(body !== undefined && { body }) });
const email = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@accounts.example`;

/** An admin signed in to a workspace of its own. */
async function otherWorkspace() {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  return { t, admin, cookie: await stack.login(admin.email, PASSWORD) };
}

const auditOf = async (c: string, action: string) => {
  await settleAudit();
  const res = await stack.call('GET', `/api/audit?action=${action}&limit=100`, as(c));
  expect(res.status, res.text).toBe(200);
  return res.body.data as { action: string; actor: Record<string, unknown>; target: Record<string, unknown>; changes: unknown[] }[];
};

describe('adding a member never says where else an address signs in', () => {
  it('an address of another workspace: one generic 409 that names neither it nor the workspace, and a record', async () => {
    const b = await otherWorkspace();
    const res = await stack.call('POST', '/api/members', as(b.cookie, { email: user.email.toUpperCase(), role: 'recruiter' }));
    expect([res.status, res.body]).toEqual([
      409,
      { error: 'this email cannot be added; ask the person for another address', code: 'email_unavailable', field: 'email' },
    ]);
    expect(res.text.toLowerCase()).not.toContain(user.email);
    expect(res.text).not.toContain(tenant.slug);
    const [record] = await auditOf(b.cookie, 'member.add_refused');
    expect(record).toMatchObject({
      actor: { type: 'user', id: b.admin.id },
      target: { type: 'workspace', id: b.t.id },
      changes: [{ field: 'email', after: user.email }],
    });
    // Nothing reaches the other workspace: no member, no record there.
    const members = await stack.call('GET', '/api/members', as(cookie));
    expect((members.body.data as { email: string }[]).filter((m) => m.email === user.email)).toHaveLength(1);
    expect(await auditOf(cookie, 'member.add_refused')).toEqual([]);
  });

  it("a member of the caller's own workspace: a 409 that says so (the admin sees the members anyway)", async () => {
    const b = await otherWorkspace();
    const res = await stack.call('POST', '/api/members', as(b.cookie, { email: b.admin.email, role: 'recruiter' }));
    expect([res.status, res.body]).toEqual([
      409,
      { error: `${b.admin.email} is already a member of this workspace`, code: 'conflict', field: 'email' },
    ]);
    expect(await auditOf(b.cookie, 'member.add_refused')).toEqual([]);
  });

  it('after the day’s refusals, every add answers the same 429, a free address too; adds that succeed use none', async () => {
    const b = await otherWorkspace();
    const taken = await stack.tenant();
    const takenEmails = await Promise.all(Array.from({ length: MAX_REFUSED_ADDS_PER_DAY + 5 }, () => taken.user('recruiter')));
    // Successes first: they give their place back.
    for (let i = 0; i < MAX_REFUSED_ADDS_PER_DAY + 2; i++) {
      const ok = await stack.call('POST', '/api/members', as(b.cookie, { email: email('free'), role: 'recruiter' }));
      expect(ok.status, ok.text).toBe(201);
    }
    // Parallel refusals cannot pass the budget: the places are taken before the look-up.
    const answers = await Promise.all(
      takenEmails.map((u) => stack.call('POST', '/api/members', as(b.cookie, { email: u.email, role: 'recruiter' }))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(MAX_REFUSED_ADDS_PER_DAY).fill(409), ...Array(5).fill(429)]);
    const free = email('free-late');
    const late = await stack.call('POST', '/api/members', as(b.cookie, { email: free, role: 'recruiter' }));
    expect([late.status, late.body.code]).toEqual([429, 'rate_limited']);
    expect(Number(late.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(late.body).toEqual(answers.find((a) => a.status === 429)!.body);
    const members = (await stack.call('GET', '/api/members', as(b.cookie))).body.data as { email: string }[];
    expect(members.map((m) => m.email)).not.toContain(free);
    // Another workspace has its own budget.
    const c = await otherWorkspace();
    expect((await stack.call('POST', '/api/members', as(c.cookie, { email: email('free-c'), role: 'recruiter' }))).status).toBe(201);
  });

  it('the budget is per UTC day', async () => {
    const b = await otherWorkspace();
    const p: SessionPrincipal = {
      kind: 'session',
      tenantId: b.t.id,
      tenantSlug: b.t.slug,
      userId: b.admin.id,
      email: b.admin.email,
      role: 'admin',
    };
    const day = Date.parse('2026-03-10T23:59:00.000Z');
    for (let i = 0; i < MAX_REFUSED_ADDS_PER_DAY; i++)
      await expect(addMember(p, { email: user.email, role: 'recruiter' }, day)).rejects.toMatchObject({ code: 'email_unavailable' });
    await expect(addMember(p, { email: email('x'), role: 'recruiter' }, day)).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': '60' },
    });
    const next = await addMember(p, { email: email('next-day'), role: 'recruiter' }, day + 120_000);
    expect(next.member.must_change_password).toBe(true);
  });
});

describe('every change leaves a record', () => {
  it('a wrong current password on PUT /api/session/password is recorded for the account, as a failed sign-in is', async () => {
    const b = await otherWorkspace();
    const res = await stack.call(
      'PUT',
      '/api/session/password',
      as(b.cookie, { current_password: 'not the password at all', new_password: 'a brand new passphrase' }),
    );
    expect([res.status, res.body.code]).toEqual([400, 'invalid_field']);
    const records = await auditOf(b.cookie, 'member.password_change_failed');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actor: { type: 'user', id: b.admin.id, email: b.admin.email },
      target: { type: 'member', id: b.admin.id },
      changes: [{ field: 'reason', after: 'bad_credentials' }],
    });
    expect(JSON.stringify(records)).not.toContain('not the password at all');
  });

  it('users, tokens and stuck thresholds made with the admin CLI are recorded as system (admin-cli)', async () => {
    const b = await otherWorkspace();
    const made = await cliCreateUser(b.t.slug, email('cli'), 'a long enough password', 'recruiter');
    const token = await cliCreateToken(b.t.slug, 'nightly export', ['pipeline:read']);
    await cliSetStuckDays(b.t.slug, { applied: 9 });
    const system = { type: 'system', id: 'admin-cli' };
    expect(await auditOf(b.cookie, 'member.added')).toEqual([
      expect.objectContaining({
        actor: system,
        target: { type: 'member', id: made.id },
        changes: [
          { field: 'email', after: made.email },
          { field: 'role', after: 'recruiter' },
        ],
      }),
    ]);
    expect(await auditOf(b.cookie, 'token.created')).toEqual([
      expect.objectContaining({
        actor: system,
        target: { type: 'token', id: token.id },
        changes: [
          { field: 'name', after: 'nightly export' },
          { field: 'scopes', after: ['pipeline:read'] },
          { field: 'kind', after: 'workspace' },
          { field: 'expires_at', after: token.expires_at },
        ],
      }),
    ]);
    expect(JSON.stringify(await auditOf(b.cookie, 'token.created'))).not.toContain(token.token);
    const [settings] = await auditOf(b.cookie, 'settings.pipeline_changed');
    expect(settings).toMatchObject({
      actor: system,
      target: { type: 'workspace', id: b.t.id },
      changes: [{ field: 'stuck_days', after: { applied: 9 } }],
    });
  });
});
