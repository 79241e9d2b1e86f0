/**
 * Offboarding through the local gateway and the real authorizers: deactivating a member keeps
 * them for the audit trail but ends their sessions at once, revokes their personal tokens (401
 * within the 60 s authorizer cache) and leaves workspace tokens and webhooks alone; they cannot
 * sign in until reactivated. The audit log says what ended. The last active admin stays. The
 * gateway's clock moves only when a test moves it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../../lib/model';
import { settleAudit } from '../../helpers/audit';
import { PASSWORD, startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
let clock = Date.now();
const TTL_MS = 60_000;

beforeAll(async () => {
  stack = await startStack({ now: () => clock });
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });

async function workspace() {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  const other = await t.user('admin');
  const member = await t.user('recruiter');
  return {
    t,
    admin: { ...admin, cookie: await stack.login(admin.email, PASSWORD) },
    other: { ...other, cookie: await stack.login(other.email, PASSWORD) },
    member: { ...member, cookie: await stack.login(member.email, PASSWORD) },
  };
}

async function mint(cookie: string, scopes: Scope[], kind?: 'personal' | 'workspace') {
  const res = await stack.call('POST', '/api/tokens', as(cookie, { name: `t-${randomUUID().slice(0, 6)}`, scopes, ...(kind && { kind }) }));
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; token: string };
}

const signIn = (email: string) => stack.call('POST', '/api/session', { body: { email, password: PASSWORD } });
const pipeline = (token: string) => stack.call('GET', '/api/v1/pipeline', { token });
async function auditOf(cookie: string, query: string) {
  await settleAudit();
  const res = await stack.call('GET', `/api/audit?${query}`, as(cookie));
  expect(res.status, res.text).toBe(200);
  return res.body.data as Array<Record<string, any>>;
}

describe('deactivating a member', () => {
  it('ends their sessions at once, revokes their personal tokens (401 within 60 s), keeps workspace tokens and webhooks', async () => {
    const { admin, other } = await workspace();
    clock = Date.now();
    const personal = await mint(other.cookie, ['*']);
    const shared = await mint(other.cookie, ['pipeline:read'], 'workspace');
    const hook = await stack.call('POST', '/api/webhooks', as(other.cookie, { url: 'https://hooks.example.com/offboarding' }));
    expect(hook.status, hook.text).toBe(201);
    expect((await pipeline(personal.token)).status).toBe(200); // cached from here
    const cachedAt = clock;

    const res = await stack.call('POST', `/api/members/${other.id}/deactivate`, as(admin.cookie));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ id: other.id, role: 'admin', deactivated_at: expect.any(String) });

    // Sessions are never cached: the next request is refused.
    expect((await stack.call('GET', '/api/session', as(other.cookie))).status).toBe(401);
    // The personal token: its cached policy until the cache period ends, 401 from then on.
    clock = cachedAt + TTL_MS - 1;
    expect((await pipeline(personal.token)).status).toBe(200);
    clock = cachedAt + TTL_MS;
    expect((await pipeline(personal.token)).status).toBe(401);
    // The workspace token and the webhook belong to the workspace.
    expect((await pipeline(shared.token)).status).toBe(200);
    const hooks = await stack.call('GET', '/api/webhooks', as(admin.cookie));
    expect(hooks.body.data.map((h: { id: string }) => h.id)).toContain(hook.body.webhook.id);
    const tokens = (await stack.call('GET', '/api/tokens', as(admin.cookie))).body.data.map((t: { id: string }) => t.id);
    expect(tokens).toContain(shared.id);
    expect(tokens).not.toContain(personal.id);

    // Kept for the record, listed as deactivated.
    const members = (await stack.call('GET', '/api/members', as(admin.cookie))).body.data;
    expect(members.find((m: { id: string }) => m.id === other.id)).toMatchObject({ deactivated_at: res.body.data.deactivated_at });

    const [ended] = await auditOf(admin.cookie, `target=${other.id}&action=member.access_ended`);
    expect(ended).toMatchObject({
      actor: { type: 'user', id: admin.id },
      changes: [
        { field: 'reason', after: 'member_deactivated' },
        { field: 'sessions_ended', after: 1 },
        { field: 'tokens_revoked', after: [personal.id] },
      ],
    });
    const [revoked] = await auditOf(admin.cookie, `target=${personal.id}&action=token.revoked`);
    expect(revoked).toMatchObject({ actor: { id: admin.id }, changes: [{ field: 'reason', after: 'member_deactivated' }] });
    expect(await auditOf(admin.cookie, `target=${other.id}&action=member.deactivated`)).toHaveLength(1);
  });

  it('a deactivated member cannot sign in (the right password is told why); reactivated, they can, and revoked tokens stay revoked', async () => {
    const { admin, member } = await workspace();
    clock = Date.now();
    const token = await mint(member.cookie, ['pipeline:read']);
    expect((await stack.call('POST', `/api/members/${member.id}/deactivate`, as(admin.cookie))).status).toBe(200);
    const wrong = await stack.call('POST', '/api/session', { body: { email: member.email, password: 'not the password at all' } });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'email or password is incorrect']);
    const refused = await signIn(member.email);
    expect([refused.status, refused.body]).toEqual([
      401,
      { error: 'this account is deactivated; ask a workspace admin to reactivate it', code: 'unauthorized' },
    ]);
    // Asking again changes nothing and answers the same member.
    const again = await stack.call('POST', `/api/members/${member.id}/deactivate`, as(admin.cookie));
    expect(again.status).toBe(200);

    const back = await stack.call('POST', `/api/members/${member.id}/reactivate`, as(admin.cookie));
    expect([back.status, back.body.data.deactivated_at]).toEqual([200, null]);
    expect((await signIn(member.email)).status).toBe(200);
    clock += TTL_MS;
    expect((await pipeline(token.token)).status).toBe(401);
    const [record] = await auditOf(admin.cookie, `target=${member.id}&action=member.reactivated`);
    expect(record).toMatchObject({ actor: { id: admin.id } });
    const failed = await auditOf(admin.cookie, `target=${member.id}&action=session.sign_in_failed`);
    expect(failed.map((r) => r.changes[0].after)).toContain('deactivated');
  });

  it('the last active admin cannot be deactivated, demoted or removed (409); an admin deactivates another admin', async () => {
    const { admin, other } = await workspace();
    expect((await stack.call('POST', `/api/members/${other.id}/deactivate`, as(admin.cookie))).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', `/api/members/${admin.id}/deactivate`, undefined],
      ['PATCH', `/api/members/${admin.id}`, { role: 'recruiter' }],
      ['DELETE', `/api/members/${admin.id}`, undefined],
    ] as const) {
      const res = await stack.call(method, path, as(admin.cookie, body));
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([409, 'conflict']);
      expect(res.body.error).toMatch(/at least one admin/);
    }
    expect((await stack.call('GET', '/api/session', as(admin.cookie))).status).toBe(200);
  });

  it("a member may not deactivate or reactivate; another workspace's admin gets 404 and nothing changes", async () => {
    const { admin, other, member } = await workspace();
    for (const action of ['deactivate', 'reactivate']) {
      const res = await stack.call('POST', `/api/members/${other.id}/${action}`, as(member.cookie));
      expect([res.status, res.body.code], action).toEqual([403, 'forbidden']);
    }
    const elsewhere = await workspace();
    for (const action of ['deactivate', 'reactivate']) {
      const res = await stack.call('POST', `/api/members/${member.id}/${action}`, as(elsewhere.admin.cookie));
      expect([res.status, res.body.code], action).toEqual([404, 'not_found']);
    }
    const bad = await stack.call('POST', '/api/members/not-a-uuid/deactivate', as(admin.cookie));
    expect([bad.status, bad.body.field]).toEqual([400, 'id']);
    expect((await stack.call('GET', '/api/session', as(member.cookie))).status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(other.cookie))).status).toBe(200);
  });
});

describe('removing a member', () => {
  it('records what ended with them: sessions and personal tokens, never their workspace tokens', async () => {
    const { admin, other } = await workspace();
    const personal = await mint(other.cookie, ['pipeline:read']);
    const shared = await mint(other.cookie, ['pipeline:read'], 'workspace');
    expect((await stack.call('DELETE', `/api/members/${other.id}`, as(admin.cookie))).status).toBe(200);
    const [ended] = await auditOf(admin.cookie, `target=${other.id}&action=member.access_ended`);
    expect(ended!.changes).toEqual([
      { field: 'reason', after: 'member_removed' },
      { field: 'sessions_ended', after: 1 },
      { field: 'tokens_revoked', after: [personal.id] },
    ]);
    clock += TTL_MS;
    expect((await pipeline(shared.token)).status).toBe(200);
  });
});
