/**
 * No credential can do more than the person behind it, through the local gateway and the real
 * authorizers: a token's scopes stay within its creator's role (when made, and when the role is
 * lowered or the member removed), only admins revoke others' tokens, every token names its
 * creator in the listing and in the audit records of what it does, and webhook changes are
 * admin-only. The gateway's authorizer cache runs on a fake clock at the deployed 60 s TTL, so
 * "a removed member's token answers 401 within 60 s" is shown exactly, without waiting.
 */
import { settleAudit } from '../../helpers/audit';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../../lib/model';
import { scopesOf } from '../../../lib/permissions';
import { PASSWORD, recordDynamoDbCommands, startStack, type Stack } from '../../helpers/stack';
import { putSession } from '../../../lib/store/sessions';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../../../dev/gateway';
import { newSessionId, SESSION_COOKIE, sessionDigest } from '../../../lib/auth/session';

let stack: Stack;
/** The gateway's clock: it moves only when a test moves it. */
let clock = Date.now();
const advance = (ms: number) => {
  clock += ms;
};
const TTL_MS = 60_000;

beforeAll(async () => {
  stack = await startStack({ now: () => clock });
  // The bound this file proves is the deployed one (pinned for the stack in test/unit/stack/api.test.ts).
  expect(AUTHORIZER_CACHE_TTL_SECONDS * 1000).toBe(TTL_MS);
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });

/** A workspace with an admin and a member, both signed in. */
async function workspace() {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  const member = await t.user('recruiter');
  return {
    t,
    admin: { ...admin, cookie: await stack.login(admin.email, PASSWORD) },
    member: { ...member, cookie: await stack.login(member.email, PASSWORD) },
  };
}

async function mint(cookie: string, scopes: Scope[], name = `t-${randomUUID().slice(0, 6)}`) {
  const res = await stack.call('POST', '/api/tokens', as(cookie, { name, scopes }));
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; token: string; name: string; scopes: Scope[] };
}

const listed = async (cookie: string) => (await stack.call('GET', '/api/tokens', as(cookie))).body.data as Array<Record<string, any>>;

async function auditOf(cookie: string, query: string) {
  await settleAudit();
  const res = await stack.call('GET', `/api/audit?${query}`, as(cookie));
  expect(res.status, res.text).toBe(200);
  return res.body.data as Array<Record<string, any>>;
}

describe("a token's scopes never exceed its creator's role", () => {
  it('a member asking for candidates:erase, *, or either among allowed scopes gets 403 with field scopes, and no token', async () => {
    const { member, admin } = await workspace();
    for (const scopes of [['candidates:erase'], ['*'], ['candidates:read', 'candidates:erase'], ['*', 'pipeline:read']] as Scope[][]) {
      const res = await stack.call('POST', '/api/tokens', as(member.cookie, { name: 'too much', scopes }));
      expect([res.status, res.body.code, res.body.field], JSON.stringify(scopes)).toEqual([403, 'forbidden', 'scopes']);
      for (const s of scopes.filter((x) => x === '*' || x === 'candidates:erase')) expect(res.body.error).toContain(s);
    }
    expect(await listed(admin.cookie)).toEqual([]);
    expect(await auditOf(admin.cookie, 'action=token.created')).toEqual([]);
  });

  it('so a member cannot erase through the API; every scope of their role they may grant, an admin every scope', async () => {
    const { member, admin } = await workspace();
    const memberScopes = scopesOf('recruiter');
    expect(memberScopes).not.toContain('candidates:erase');
    expect(memberScopes).not.toContain('*');
    const own = await mint(member.cookie, [...memberScopes]);
    const created = await stack.call('POST', '/api/v1/candidates', { token: own.token, body: { name: 'Ada Access' } });
    expect(created.status).toBe(201);
    const erase = await stack.call('POST', `/api/v1/candidates/${created.body.data.id}/erase`, { token: own.token });
    expect(erase.status).toBe(403);
    expect((await mint(admin.cookie, [...SCOPES])).scopes).toEqual([...SCOPES]);
  });

  it('a session whose role was lowered under it cannot mint with the old role (the write checks the role)', async () => {
    // A session item that still says admin for a user who is now a member: what a request sees
    // between a demotion's write and the end of that user's sessions.
    const { t, member } = await workspace();
    const id = newSessionId();
    const at = new Date().toISOString();
    await putSession(sessionDigest(id), {
      tenant_id: t.id,
      tenant_slug: t.slug,
      user_id: member.id,
      email: member.email,
      role: 'admin',
      created_at: at,
      last_seen_at: at,
    });
    const res = await stack.call('POST', '/api/tokens', as(`${SESSION_COOKIE}=${id}`, { name: 'stale', scopes: ['*'] }));
    expect([res.status, res.body.code, res.body.field]).toEqual([403, 'forbidden', 'scopes']);
    expect(await listed(member.cookie)).toEqual([]);
  });
});

describe('revoking', () => {
  it("a member revokes their own tokens, never an admin's or a workspace token; an admin revokes any", async () => {
    const { t, member, admin } = await workspace();
    const adminToken = await mint(admin.cookie, ['*']);
    const workspaceToken = await t.token(['pipeline:read']);
    const workspaceId = (await listed(admin.cookie)).find((x) => x.created_by === null)!.id;
    for (const id of [adminToken.id, workspaceId]) {
      const res = await stack.call('DELETE', `/api/tokens/${id}`, as(member.cookie));
      expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
      expect(res.body.error).toMatch(/^only workspace admins may revoke /);
    }
    // Both still work and are still listed, and nothing was recorded as revoked.
    expect((await stack.call('GET', '/api/v1/pipeline', { token: adminToken.token })).status).toBe(200);
    expect((await stack.call('GET', '/api/v1/pipeline', { token: workspaceToken })).status).toBe(200);
    expect((await listed(admin.cookie)).map((x) => x.id).sort()).toEqual([adminToken.id, workspaceId].sort());
    expect(await auditOf(admin.cookie, 'action=token.revoked')).toEqual([]);

    const own = await mint(member.cookie, ['candidates:read']);
    expect((await stack.call('DELETE', `/api/tokens/${own.id}`, as(member.cookie))).status).toBe(200);
    const another = await mint(member.cookie, ['candidates:read']);
    expect((await stack.call('DELETE', `/api/tokens/${another.id}`, as(admin.cookie))).status).toBe(200);
    expect((await stack.call('DELETE', `/api/tokens/${workspaceId}`, as(admin.cookie))).status).toBe(200);
  });
});

describe('every token names its creator', () => {
  it('the listing shows created_by (null for a workspace token), and the audit record of its use names the token and its creator', async () => {
    const { t, member, admin } = await workspace();
    const own = await mint(member.cookie, ['candidates:write'], 'ATS sync');
    await t.token(['pipeline:read']);
    const tokens = await listed(member.cookie);
    expect(tokens.find((x) => x.id === own.id)!.created_by).toEqual({ id: member.id, email: member.email });
    expect(tokens.filter((x) => x.created_by === null)).toHaveLength(1);

    const created = await stack.call('POST', '/api/v1/candidates', { token: own.token, body: { name: 'Grace Audit' } });
    expect(created.status).toBe(201);
    const [record] = await auditOf(admin.cookie, `target=${created.body.data.id}`);
    expect(record).toMatchObject({
      action: 'candidate.created',
      actor: { type: 'token', id: own.id, name: 'ATS sync', created_by: { id: member.id, email: member.email } },
    });
    // A workspace token's actions name the token alone.
    const ws = await t.token(['candidates:write']);
    const other = await stack.call('POST', '/api/v1/candidates', { token: ws, body: { name: 'Workspace Made' } });
    const [wsRecord] = await auditOf(admin.cookie, `target=${other.body.data.id}`);
    expect(wsRecord!.actor).not.toHaveProperty('created_by');
  });
});

describe('the authorizer reads the creator from the one item it already reads', () => {
  it("a cache miss costs one GetItem (two for a personal token: its creator's role) and the best-effort last_used_at update, a hit nothing", async () => {
    const { t, member } = await workspace();
    const own = await mint(member.cookie, ['pipeline:read']);
    const shared = await t.token(['pipeline:read']);
    const sent: string[] = [];
    let counting = false;
    await recordDynamoDbCommands(sent, () => counting);
    const count = async (token = own.token) => {
      sent.length = 0;
      counting = true;
      const res = await stack.call('GET', '/api/v1/pipeline', { token });
      counting = false;
      expect(res.status).toBe(200);
      return [...sent].sort();
    };
    // GET /api/v1/pipeline alone: the counters' BatchGetItem and the stuck Query (test/integration/calls/candidates.test.ts).
    expect(await count()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'GetItemCommand', 'QueryCommand', 'UpdateItemCommand']);
    expect(await count()).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    // A workspace token acts as an admin: no creator to read.
    expect(await count(shared)).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand', 'UpdateItemCommand']);
    expect(await count(shared)).toEqual(['BatchGetItemCommand', 'QueryCommand']);
  });
});

describe('removing a member or lowering their role reaches their tokens and sessions', () => {
  it('removal revokes every token they made and ends their sessions; the token answers 401 within the 60 s cache', async () => {
    const { t, member, admin } = await workspace();
    const own = await mint(member.cookie, ['pipeline:read', 'candidates:read']);
    const kept = await t.token(['pipeline:read']); // a workspace token outlives the member
    const adminsOwn = await mint(admin.cookie, ['pipeline:read']);
    expect((await stack.call('GET', '/api/v1/pipeline', { token: own.token })).status).toBe(200); // cached from now
    const cachedAt = clock;

    const removed = await stack.call('DELETE', `/api/members/${member.id}`, as(admin.cookie));
    expect(removed.status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(member.cookie))).status).toBe(401);
    expect((await listed(admin.cookie)).map((x) => x.id)).not.toContain(own.id);
    const [revoked] = await auditOf(admin.cookie, `target=${own.id}&action=token.revoked`);
    expect(revoked).toMatchObject({ actor: { type: 'user', id: admin.id }, changes: [{ field: 'reason', after: 'member_removed' }] });

    // The policy cached before the removal may serve until the TTL ends, and not one moment more.
    advance(TTL_MS - 1);
    expect((await stack.call('GET', '/api/v1/pipeline', { token: own.token })).status).toBe(200);
    clock = cachedAt + TTL_MS;
    expect((await stack.call('GET', '/api/v1/pipeline', { token: own.token })).status).toBe(401);
    expect((await stack.call('GET', '/api/v1/candidates', { token: own.token })).status).toBe(401);
    expect((await stack.call('GET', '/api/v1/pipeline', { token: kept })).status).toBe(200);
    expect((await stack.call('GET', '/api/v1/pipeline', { token: adminsOwn.token })).status).toBe(200);
  });

  it('lowering admin to member ends their sessions and narrows their tokens: * to the member scopes, erase-only revoked', async () => {
    const { t, admin } = await workspace();
    const other = await t.user('admin');
    const otherCookie = await stack.login(other.email, PASSWORD);
    const all = await mint(otherCookie, ['*']);
    const eraser = await mint(otherCookie, ['candidates:erase']);
    const reader = await mint(otherCookie, ['candidates:read']);
    const mixed = await mint(otherCookie, ['candidates:erase', 'pipeline:read']);
    const candidate = await stack.call('POST', '/api/v1/candidates', { token: all.token, body: { name: 'Lin Lowered' } });
    expect(candidate.status).toBe(201);
    for (const x of [eraser, reader, mixed]) await stack.call('GET', '/api/v1/pipeline', { token: x.token }); // cache them all
    const cachedAt = clock;

    const demoted = await stack.call('PATCH', `/api/members/${other.id}`, as(admin.cookie, { role: 'recruiter' }));
    expect(demoted.status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(otherCookie))).status).toBe(401);
    const after = new Map((await listed(admin.cookie)).map((x) => [x.id, x.scopes]));
    expect(after.get(all.id)).toEqual([...scopesOf('recruiter')]);
    expect(after.has(eraser.id)).toBe(false);
    expect(after.get(reader.id)).toEqual(['candidates:read']);
    expect(after.get(mixed.id)).toEqual(['pipeline:read']);
    const [narrowed] = await auditOf(admin.cookie, `target=${all.id}&action=token.narrowed`);
    expect(narrowed!.changes).toEqual([
      { field: 'scopes', before: ['*'], after: [...scopesOf('recruiter')] },
      { field: 'reason', after: 'role_changed' },
    ]);

    clock = cachedAt + TTL_MS;
    const erase = `/api/v1/candidates/${candidate.body.data.id}/erase`;
    expect((await stack.call('POST', erase, { token: all.token })).status).toBe(403);
    expect((await stack.call('GET', '/api/v1/candidates', { token: all.token })).status).toBe(200);
    expect((await stack.call('POST', erase, { token: eraser.token })).status).toBe(401);
    expect((await stack.call('POST', erase, { token: mixed.token })).status).toBe(403);
    expect((await stack.call('GET', '/api/v1/candidates', { token: reader.token })).status).toBe(200);
    // Nothing was erased along the way.
    expect((await stack.call('GET', `/api/v1/candidates/${candidate.body.data.id}`, { token: reader.token })).body.data.name).toBe(
      'Lin Lowered',
    );
  });

  it('raising a member keeps their sessions and tokens as they are', async () => {
    const { member, admin } = await workspace();
    const own = await mint(member.cookie, ['candidates:read']);
    expect((await stack.call('PATCH', `/api/members/${member.id}`, as(admin.cookie, { role: 'admin' }))).status).toBe(200);
    expect((await stack.call('GET', '/api/session', as(member.cookie))).body.data.user.role).toBe('admin');
    expect((await listed(admin.cookie)).find((x) => x.id === own.id)!.scopes).toEqual(['candidates:read']);
  });
});

describe('webhook changes are admin-only', () => {
  it('a member may read endpoints and deliveries but not create, change, test, resend, replay, rotate or delete', async () => {
    const { member, admin } = await workspace();
    const made = await stack.call('POST', '/api/webhooks', as(admin.cookie, { url: 'https://hooks.example.com/admin-only' }));
    expect(made.status, made.text).toBe(201);
    const id = made.body.webhook.id;
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/webhooks', { url: 'https://hooks.example.com/member' }],
      ['PATCH', `/api/webhooks/${id}`, { url: 'https://attacker.example.com/all-the-data' }],
      ['POST', `/api/webhooks/${id}/test`, undefined],
      ['POST', `/api/webhooks/${id}/resend`, { event_id: `evt_${'0'.repeat(32)}` }],
      ['POST', `/api/webhooks/${id}/replay`, { since: new Date(Date.now() - 3_600_000).toISOString() }],
      ['POST', `/api/webhooks/${id}/rotate-secret`, {}],
      ['DELETE', `/api/webhooks/${id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await stack.call(method, path, as(member.cookie, body));
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([403, 'forbidden']);
      expect(res.body.error, `${method} ${path}`).toMatch(/^only workspace admins may /);
    }
    const reads = ['/api/webhooks', `/api/webhooks/${id}`, `/api/webhooks/${id}/deliveries`, `/api/webhooks/${id}/replay`];
    for (const path of reads) expect((await stack.call('GET', path, as(member.cookie))).status, path).toBe(200);
    // Nothing changed, and nothing was recorded but the admin's create.
    const detail = await stack.call('GET', `/api/webhooks/${id}`, as(admin.cookie));
    expect(detail.body.webhook).toMatchObject({ url: 'https://hooks.example.com/admin-only', active: true });
    expect((await auditOf(admin.cookie, `actor=${member.id}`)).filter((r) => r.action.startsWith('webhook.'))).toEqual([]);
  });
});
