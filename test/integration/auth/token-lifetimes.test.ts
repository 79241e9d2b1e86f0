/**
 * Tokens with kinds and lifetimes, through the local gateway and the real authorizer: every token
 * expires (the workspace's default and maximum lifetimes, admin settings), an expired token
 * answers 401 `token_expired` with the time it expired, to the second although the authorizer's
 * answer is cached for 60 s, and personal and workspace tokens follow their kind's rules. The
 * gateway's clock (its cache and each request's time) moves only when a test moves it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../../lib/model';
import { settleAudit } from '../../helpers/audit';
import { PASSWORD, recordDynamoDbCommands, startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
let clock = Date.now();
const DAY = 86_400_000;

beforeAll(async () => {
  stack = await startStack({ now: () => clock });
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });

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

type Made = { id: string; token: string; scopes: Scope[]; kind: string; expires_at: string; created_at: string };
async function mint(cookie: string, body: { scopes?: Scope[]; kind?: string; expires_at?: string } = {}) {
  const res = await stack.call(
    'POST',
    '/api/tokens',
    as(cookie, { name: `t-${randomUUID().slice(0, 6)}`, scopes: ['pipeline:read'], ...body }),
  );
  expect(res.status, res.text).toBe(201);
  return res.body.data as Made;
}
const listed = async (cookie: string) => (await stack.call('GET', '/api/tokens', as(cookie))).body.data as Array<Record<string, any>>;

describe('every token expires', () => {
  it('an expired token answers 401 token_expired naming when, to the second, although its policy is cached', async () => {
    const { admin } = await workspace();
    clock = Date.now();
    const expires = new Date(Date.now() + 30_000).toISOString();
    const made = await mint(admin.cookie, { expires_at: expires });
    expect(made.expires_at).toBe(expires);
    // Cached from here for 60 s, well past the expiry.
    expect((await stack.call('GET', '/api/v1/pipeline', { token: made.token })).status).toBe(200);
    clock = Date.parse(expires) - 1;
    expect((await stack.call('GET', '/api/v1/pipeline', { token: made.token })).status).toBe(200);
    clock = Date.parse(expires);
    const res = await stack.call('GET', '/api/v1/pipeline', { token: made.token });
    expect([res.status, res.body]).toEqual([
      401,
      { error: `this API token expired at ${expires}; ask a workspace user for a new one`, code: 'token_expired' },
    ]);
    // After the cache period the authorizer runs again, and the answer is the same.
    clock += 61_000;
    const again = await stack.call('GET', '/api/v1/pipeline', { token: made.token });
    expect([again.status, again.body.code]).toEqual([401, 'token_expired']);
    // Refused requests are not use.
    const [row] = (await listed(admin.cookie)).filter((t) => t.id === made.id);
    expect(Date.parse(row!.last_used_at)).toBeLessThan(Date.parse(expires));
  });

  it('a token made without expires_at gets the default lifetime (90 days); the list shows kind, expires_at and last_used_at', async () => {
    const { admin } = await workspace();
    clock = Date.now();
    const made = await mint(admin.cookie);
    expect(made.kind).toBe('personal');
    expect(Date.parse(made.expires_at) - Date.parse(made.created_at)).toBeGreaterThanOrEqual(90 * DAY - 5_000);
    expect(Date.parse(made.expires_at) - Date.parse(made.created_at)).toBeLessThanOrEqual(90 * DAY + 5_000);
    const [before] = (await listed(admin.cookie)).filter((t) => t.id === made.id);
    expect(before).toMatchObject({ kind: 'personal', expires_at: made.expires_at, last_used_at: null });
    expect((await stack.call('GET', '/api/v1/pipeline', { token: made.token })).status).toBe(200);
    const [after] = (await listed(admin.cookie)).filter((t) => t.id === made.id);
    expect(after!.last_used_at).toEqual(expect.any(String));
  });

  it('expires_at in the past, beyond the maximum (366 days) or malformed -> 400 with field expires_at, and no token', async () => {
    const { admin } = await workspace();
    const count = (await listed(admin.cookie)).length;
    const cases: Array<[string, unknown, RegExp]> = [
      ['in the past', new Date(Date.now() - 60_000).toISOString(), /^expires_at must be in the future$/],
      ['now-ish', new Date(Date.now()).toISOString(), /^expires_at must be in the future$/],
      ['beyond 366 days', new Date(Date.now() + 367 * DAY).toISOString(), /^expires_at must be at most 366 days from now/],
      ['not a date', 'next tuesday', /^expires_at must be an ISO 8601 date-time/],
      ['a number', 1_900_000_000, /^expires_at must be an ISO 8601 date-time/],
    ];
    for (const [what, expires_at, error] of cases) {
      const res = await stack.call('POST', '/api/tokens', as(admin.cookie, { name: 'x', scopes: ['pipeline:read'], expires_at }));
      expect([res.status, res.body.field, res.body.code], what).toEqual([400, 'expires_at', 'invalid_field']);
      expect(res.body.error, what).toMatch(error);
    }
    const latest = await mint(admin.cookie, { expires_at: new Date(Date.now() + 365 * DAY).toISOString() });
    expect(latest.expires_at).toEqual(expect.any(String));
    expect((await listed(admin.cookie)).length).toBe(count + 1);
  });

  it('an admin sets the default and maximum lifetimes (audited); tokens follow them; a member may read them only', async () => {
    const { admin, member } = await workspace();
    const read = await stack.call('GET', '/api/settings/tokens', as(member.cookie));
    expect([read.status, read.body]).toEqual([200, { data: { default_days: 90, max_days: 366 } }]);
    const refused = await stack.call('PUT', '/api/settings/tokens', as(member.cookie, { default_days: 7, max_days: 30 }));
    expect(refused.status).toBe(403);

    const saved = await stack.call('PUT', '/api/settings/tokens', as(admin.cookie, { default_days: 7, max_days: 30 }));
    expect([saved.status, saved.body]).toEqual([200, { data: { default_days: 7, max_days: 30 } }]);
    expect((await stack.call('GET', '/api/settings/tokens', as(member.cookie))).body.data).toEqual({ default_days: 7, max_days: 30 });

    const made = await mint(member.cookie);
    expect(Date.parse(made.expires_at) - Date.parse(made.created_at)).toBeLessThanOrEqual(7 * DAY + 5_000);
    expect(Date.parse(made.expires_at) - Date.parse(made.created_at)).toBeGreaterThanOrEqual(7 * DAY - 5_000);
    const late = await stack.call(
      'POST',
      '/api/tokens',
      as(member.cookie, { name: 'x', scopes: ['pipeline:read'], expires_at: new Date(Date.now() + 31 * DAY).toISOString() }),
    );
    expect([late.status, late.body.field]).toEqual([400, 'expires_at']);
    expect(late.body.error).toMatch(/^expires_at must be at most 30 days from now/);

    await settleAudit();
    const audit = await stack.call('GET', '/api/audit?action=settings.tokens_changed', as(admin.cookie));
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: 'user', id: admin.id },
      changes: [{ field: 'token_lifetime', before: { default_days: 90, max_days: 366 }, after: { default_days: 7, max_days: 30 } }],
    });
  });

  it('lifetime settings out of bounds -> 400 with code and field', async () => {
    const { admin } = await workspace();
    const cases: Array<[unknown, string]> = [
      [{ default_days: 0, max_days: 30 }, 'default_days'],
      [{ default_days: 7, max_days: 367 }, 'max_days'],
      [{ default_days: 7.5, max_days: 30 }, 'default_days'],
      [{ default_days: 31, max_days: 30 }, 'default_days'],
      [{ default_days: 7 }, 'max_days'],
      [{ default_days: 7, max_days: 30, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await stack.call('PUT', '/api/settings/tokens', as(admin.cookie, body));
      expect([res.status, res.body.field, res.body.code], JSON.stringify(body)).toEqual([400, field, 'invalid_field']);
    }
    expect((await stack.call('GET', '/api/settings/tokens', as(admin.cookie))).body.data).toEqual({ default_days: 90, max_days: 366 });
  });
});

describe('personal and workspace tokens', () => {
  it('a member asking for a workspace token gets 403 field kind; an admin makes one, listed as kind workspace', async () => {
    const { admin, member } = await workspace();
    const refused = await stack.call('POST', '/api/tokens', as(member.cookie, { name: 'x', scopes: ['pipeline:read'], kind: 'workspace' }));
    expect([refused.status, refused.body.field, refused.body.code]).toEqual([403, 'kind', 'forbidden']);
    const bad = await stack.call('POST', '/api/tokens', as(admin.cookie, { name: 'x', scopes: ['pipeline:read'], kind: 'team' }));
    expect([bad.status, bad.body.field]).toEqual([400, 'kind']);
    const made = await mint(admin.cookie, { kind: 'workspace' });
    expect(made.kind).toBe('workspace');
    const [row] = (await listed(member.cookie)).filter((t) => t.id === made.id);
    expect(row).toMatchObject({ kind: 'workspace', created_by: { id: admin.id, email: admin.email } });
  });

  it('only an admin revokes a workspace token, even one its maker made before being demoted', async () => {
    const { t, admin } = await workspace();
    const other = await t.user('admin');
    const otherCookie = await stack.login(other.email, PASSWORD);
    const made = await mint(otherCookie, { kind: 'workspace', scopes: ['*'] });
    expect((await stack.call('PATCH', `/api/members/${other.id}`, as(admin.cookie, { role: 'recruiter' }))).status).toBe(200);
    const demoted = await stack.login(other.email, PASSWORD);
    const refused = await stack.call('DELETE', `/api/tokens/${made.id}`, as(demoted));
    expect([refused.status, refused.body.error]).toEqual([403, 'only workspace admins may revoke a workspace token']);
    // Demotion narrows personal tokens only: the workspace token keeps `*` and works.
    const [row] = (await listed(admin.cookie)).filter((x) => x.id === made.id);
    expect(row!.scopes).toEqual(['*']);
    expect((await stack.call('GET', '/api/v1/pipeline', { token: made.token })).status).toBe(200);
    expect((await stack.call('DELETE', `/api/tokens/${made.id}`, as(admin.cookie))).status).toBe(200);
  });
});

describe('rotation', () => {
  const rotate = (cookie: string, id: string, body: unknown = {}) => stack.call('POST', `/api/tokens/${id}/rotate`, as(cookie, body));
  const pipelineWith = async (token: string) => stack.call('GET', '/api/v1/pipeline', { token });

  it('a new secret, shown once, with the same token; the old one works until the grace ends, then 401 token_rotated', async () => {
    const { admin } = await workspace();
    clock = Date.now();
    const made = await mint(admin.cookie, { scopes: ['pipeline:read', 'candidates:read'] });
    expect((await pipelineWith(made.token)).status).toBe(200); // cached before the rotation
    const res = await rotate(admin.cookie, made.id, { grace_seconds: 600 });
    expect(res.status, res.text).toBe(200);
    const r = res.body.data;
    expect(r).toMatchObject({
      id: made.id,
      scopes: made.scopes,
      kind: 'personal',
      expires_at: made.expires_at,
      created_at: made.created_at,
    });
    expect(r.token).not.toBe(made.token);
    const ends = Date.parse(r.previous_secret_ends_at);
    expect(ends).toBeGreaterThanOrEqual(clock + 600_000 - 5_000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 600_000);
    const [row] = (await listed(admin.cookie)).filter((t) => t.id === made.id);
    expect(r.token.endsWith(row!.hint.slice(-4))).toBe(true);

    expect((await pipelineWith(r.token)).status).toBe(200);
    clock = ends - 1_000; // past the pre-rotation cache: the authorizer reads the old secret's end
    expect((await pipelineWith(made.token)).status).toBe(200);
    clock = ends; // the old secret's policy is still cached
    const old = await pipelineWith(made.token);
    expect([old.status, old.body]).toEqual([
      401,
      {
        error: `this token was rotated; its previous secret stopped working at ${r.previous_secret_ends_at}: use the new one`,
        code: 'token_rotated',
      },
    ]);
    expect((await pipelineWith(r.token)).status).toBe(200);

    await settleAudit();
    const audit = await stack.call('GET', `/api/audit?action=token.rotated&target=${made.id}`, as(admin.cookie));
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: 'user', id: admin.id },
      changes: [
        { field: 'grace_seconds', after: 600 },
        { field: 'previous_secret_ends_at', after: r.previous_secret_ends_at },
      ],
    });
    expect(JSON.stringify(audit.body)).not.toContain(r.token);
  });

  it('grace_seconds 0: the old secret stops within the 60 s cache; revoking a token in its grace ends both secrets', async () => {
    const { admin } = await workspace();
    clock = Date.now();
    const a = await mint(admin.cookie);
    expect((await pipelineWith(a.token)).status).toBe(200);
    const now = await rotate(admin.cookie, a.id, { grace_seconds: 0 });
    expect([now.status, now.body.data.previous_secret_ends_at]).toEqual([200, null]);
    clock += 60_000;
    expect((await pipelineWith(a.token)).status).toBe(401);
    expect((await pipelineWith(now.body.data.token)).status).toBe(200);

    const b = await mint(admin.cookie);
    const rotated = (await rotate(admin.cookie, b.id)).body.data;
    // Default grace: an hour.
    expect(Date.parse(rotated.previous_secret_ends_at) - Date.now()).toBeGreaterThan(3_500_000);
    expect((await pipelineWith(b.token)).status).toBe(200);
    expect((await stack.call('DELETE', `/api/tokens/${b.id}`, as(admin.cookie))).status).toBe(200);
    clock += 60_000;
    expect((await pipelineWith(b.token)).body).toMatchObject({ code: 'unauthorized' });
    expect((await pipelineWith(rotated.token)).body).toMatchObject({ code: 'unauthorized' });
  });

  it("only the creator or an admin rotates: a member may not rotate another's token or a workspace token", async () => {
    const { admin, member } = await workspace();
    const admins = await mint(admin.cookie);
    const shared = await mint(admin.cookie, { kind: 'workspace' });
    const own = await mint(member.cookie);
    for (const [id, error] of [
      [admins.id, 'only workspace admins may rotate a token someone else made'],
      [shared.id, 'only workspace admins may rotate a workspace token'],
    ] as const) {
      const res = await rotate(member.cookie, id);
      expect([res.status, res.body.error, res.body.code]).toEqual([403, error, 'forbidden']);
    }
    expect((await rotate(member.cookie, own.id)).status).toBe(200);
    expect((await rotate(admin.cookie, own.id)).status).toBe(200);
    expect((await rotate(admin.cookie, shared.id)).status).toBe(200);
    // The refused rotations changed nothing: the admin's token still has its one secret.
    expect((await pipelineWith(admins.token)).status).toBe(200);
  });

  it('bad grace_seconds -> 400 with field; an unknown or other workspace token -> 404, and nothing changes', async () => {
    const { admin } = await workspace();
    clock = Date.now();
    const made = await mint(admin.cookie);
    for (const body of [{ grace_seconds: 86_401 }, { grace_seconds: -1 }, { grace_seconds: 1.5 }, { grace_seconds: '60' }]) {
      const res = await rotate(admin.cookie, made.id, body);
      expect([res.status, res.body.field, res.body.code], JSON.stringify(body)).toEqual([400, 'grace_seconds', 'invalid_field']);
    }
    const extra = await rotate(admin.cookie, made.id, { grace: 1 });
    expect([extra.status, extra.body.field]).toEqual([400, 'grace']);
    expect((await rotate(admin.cookie, randomUUID())).status).toBe(404);

    const other = await workspace();
    const foreign = await rotate(other.admin.cookie, made.id);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    expect((await pipelineWith(made.token)).status).toBe(200);
    const [row] = (await listed(admin.cookie)).filter((t) => t.id === made.id);
    expect(made.token.endsWith(row!.hint.slice(-4))).toBe(true);
  });
});

describe("the authorizer's cost", () => {
  it("expiry and rotation add no DynamoDB call: a miss is the lookup, the creator's role and the use, a hit none", async () => {
    const { admin } = await workspace();
    clock = Date.now();
    const expiring = await mint(admin.cookie, { expires_at: new Date(Date.now() + 60_000).toISOString() });
    const rotated = await mint(admin.cookie);
    const fresh = (await stack.call('POST', `/api/tokens/${rotated.id}/rotate`, as(admin.cookie, { grace_seconds: 120 }))).body.data;
    const sent: string[] = [];
    let counting = false;
    await recordDynamoDbCommands(sent, () => counting);
    const count = async (token: string, status: number) => {
      sent.length = 0;
      counting = true;
      const res = await stack.call('GET', '/api/v1/pipeline', { token });
      counting = false;
      expect(res.status).toBe(status);
      return [...sent].sort();
    };
    // GET /api/v1/pipeline alone: the counters' BatchGetItem and the stuck Query (test/integration/calls/candidates.test.ts).
    const served = ['BatchGetItemCommand', 'QueryCommand'];
    // A miss: the lookup GetItem, the creator's current role (a personal token acts with it: the
    // one extra read a miss may make) and the use.
    const miss = ['GetItemCommand', 'GetItemCommand', 'UpdateItemCommand'];
    for (const token of [expiring.token, rotated.token, fresh.token]) {
      expect(await count(token, 200)).toEqual([...served, ...miss].sort());
      expect(await count(token, 200)).toEqual(served);
    }
    // Past the expiry and the grace, with the cache expired too: no handler runs. (The authorizer
    // judges "not yet ended, so record the use" by the real clock, which this test does not move.)
    clock += 3 * 60_000;
    for (const token of [expiring.token, rotated.token]) {
      expect(await count(token, 401)).toEqual(miss);
      expect(await count(token, 401)).toEqual([]);
    }
  });
});
