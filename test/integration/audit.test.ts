/**
 * The workspace audit log against DynamoDB Local: each audited action recorded once, with the
 * right actor kind, from a token and from a session; a failed write leaves no record; no record
 * holds a candidate's personal values; GET /api/audit is admin-only, newest first, filtered and
 * paged, and shows a workspace nothing of another's.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { settleAudit } from '../helpers/audit';
import { scanTable } from '../helpers/scan';
import { tlsServers, type TestServer } from '../helpers/tls-servers';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { ddb } from '../../lib/store/client';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { auditGroupPuts, auditPuts } from '../../lib/store/audit';

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let adminA: { id: string; email: string };
let cookieA: string;
let cookieB: string;
let receiver: TestServer;
const servers = tlsServers(inject('tls'));

interface Rec {
  id: string;
  at: string;
  action: string;
  actor: { type: string; id: string; email?: string; name?: string };
  target: { type: string; id: string };
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  changes: { field: string; before?: unknown; after?: unknown }[];
}

beforeAll(async () => {
  receiver = await servers.start((_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  stack = await startStack({ webhooks: { allowLoopback: true, retrySchedule: '0', timeoutMs: 2_000 } });
  a = await stack.tenant();
  b = await stack.tenant();
  adminA = await a.user('admin');
  cookieA = await stack.login(adminA.email, PASSWORD);
  cookieB = await stack.login((await b.user('admin')).email, PASSWORD);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await servers.closeAll();
});

const UA = 'audit-test/1.0';
const asA = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  stack.call(method, path, { body, headers: { Cookie: cookieA, 'User-Agent': UA, ...headers } });

/** Every record of A's log under a query, all pages. */
async function audit(query = '', cookie = cookieA): Promise<Rec[]> {
  await settleAudit();
  const out: Rec[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const res = await stack.call('GET', `/api/audit?${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers: { Cookie: cookie },
    });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

/** The one record of `action` on `target`: exactly one, or the test fails. */
async function one(action: string, target: string): Promise<Rec> {
  const found = (await audit(`target=${target}`)).filter((r) => r.action === action);
  expect(found, `${action} on ${target}`).toHaveLength(1);
  return found[0]!;
}

describe('each audited action is recorded once, with its actor', () => {
  it('candidate and requisition writes from a token name the token; from the console, the user', async () => {
    const token = await a.token(['*']);
    const viaToken = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      stack.call(method, path, { token, body, headers: { 'User-Agent': UA, ...headers } });
    for (const [call, prefix, actorType] of [
      [viaToken, '/api/v1', 'token'],
      [asA, '/api', 'user'],
    ] as const) {
      const req = await call('POST', `${prefix}/requisitions`, { title: `Audited ${actorType}`, headcount: 2 });
      expect(req.status, req.text).toBe(201);
      const reqId = req.body.data.id;
      expect((await call('PATCH', `${prefix}/requisitions/${reqId}`, { title: 'Renamed' })).status).toBe(200);
      expect((await call('POST', `${prefix}/requisitions/${reqId}/status`, { status: 'on_hold', reason: 'Budget freeze' })).status).toBe(
        200,
      );
      expect((await call('POST', `${prefix}/requisitions/${reqId}/status`, { status: 'open' })).status).toBe(200);
      // An email belongs to one person in the workspace: each actor's Grace has her own, or the
      // second PATCH would claim the first one's new address (409 email_taken).
      const cand = await call('POST', `${prefix}/candidates`, {
        name: 'Grace Hopper',
        email: `grace.${actorType}@example.com`,
        phone: '+1 202 555 0143',
        req_id: reqId,
      });
      expect(cand.status, cand.text).toBe(201);
      const candId = cand.body.data.id;
      expect((await call('PATCH', `${prefix}/candidates/${candId}`, { email: `grace.h.${actorType}@example.com` })).status).toBe(200);
      const moved = await call('POST', `${prefix}/pipeline`, { candidate_id: candId, stage: 'interviewed' });
      expect(moved.status).toBe(200);

      const created = await one('candidate.created', candId);
      expect(created.actor.type).toBe(actorType);
      if (actorType === 'token') expect(created.actor.name).toBeDefined();
      else expect(created.actor).toMatchObject({ id: adminA.id, email: adminA.email });
      expect(created.target).toEqual({ type: 'candidate', id: candId });
      expect(created.user_agent).toBe(UA);
      expect(created.ip).toBeTruthy();
      expect(created.request_id).toBe(cand.headers.get('x-request-id'));
      expect(created.changes).toEqual([
        { field: 'name' },
        { field: 'email' },
        { field: 'phone' },
        { field: 'stage', after: 'applied' },
        { field: 'req_id', after: reqId },
      ]);
      expect((await one('candidate.updated', candId)).changes).toEqual([{ field: 'email' }]);
      const move = await one('candidate.stage_changed', candId);
      expect(move.changes).toEqual([{ field: 'stage', before: 'applied', after: 'interviewed' }]);
      expect(move.request_id).toBe(moved.headers.get('x-request-id'));

      const reqLog = await audit(`target=${reqId}`);
      // Newest first.
      expect(reqLog.map((r) => r.action)).toEqual([
        'requisition.status_changed',
        'requisition.status_changed',
        'requisition.updated',
        'requisition.created',
      ]);
      for (const r of reqLog) expect(r.actor.type).toBe(actorType);
      expect(reqLog[2]!.changes).toEqual([{ field: 'title', before: `Audited ${actorType}`, after: 'Renamed' }]);
      // The reason is free text: named, not kept.
      expect(reqLog[1]!.changes).toEqual([{ field: 'status', before: 'open', after: 'on_hold' }, { field: 'reason' }]);
    }
  });

  it('tokens, members, settings and the own password, from the console', async () => {
    const token = await asA('POST', '/api/tokens', { name: 'Payroll export', scopes: ['candidates:read'] });
    expect(token.status).toBe(201);
    const tokenId = token.body.data.id;
    expect((await asA('DELETE', `/api/tokens/${tokenId}`)).status).toBe(200);
    expect((await one('token.created', tokenId)).changes).toEqual([
      { field: 'name', after: 'Payroll export' },
      { field: 'scopes', after: ['candidates:read'] },
      { field: 'kind', after: 'personal' },
      { field: 'expires_at', after: token.body.data.expires_at },
    ]);
    expect((await one('token.revoked', tokenId)).actor).toMatchObject({ type: 'user', id: adminA.id });

    const email = `member-${a.slug}@example.com`;
    const added = await asA('POST', '/api/members', { email, role: 'recruiter' });
    expect(added.status).toBe(201);
    const memberId = added.body.data.member.id;
    expect((await asA('PATCH', `/api/members/${memberId}`, { role: 'admin' })).status).toBe(200);
    expect((await asA('POST', `/api/members/${memberId}/reset-password`)).status).toBe(200);
    expect((await asA('DELETE', `/api/members/${memberId}/lockout`)).status).toBe(200);
    expect((await asA('DELETE', `/api/members/${memberId}`)).status).toBe(200);
    expect((await one('member.added', memberId)).changes).toEqual([
      { field: 'email', after: email },
      { field: 'role', after: 'recruiter' },
    ]);
    expect((await one('member.role_changed', memberId)).changes).toEqual([{ field: 'role', before: 'recruiter', after: 'admin' }]);
    await one('member.password_reset', memberId);
    await one('member.lockout_cleared', memberId);
    await one('member.removed', memberId);
    expect((await one('member.access_ended', memberId)).changes).toEqual([
      { field: 'reason', after: 'member_removed' },
      { field: 'sessions_ended', after: 0 },
      { field: 'tokens_revoked', after: [] },
    ]);

    expect((await asA('PUT', '/api/settings/pipeline', { stuck_days: { applied: 4 } })).status).toBe(200);
    const settings = await one('settings.pipeline_changed', a.id);
    expect(settings.changes[0]).toMatchObject({ field: 'stuck_days', after: { applied: 4 } });

    // The own password: a user of its own, so the other tests' sessions stay.
    const self = await a.user('recruiter');
    const selfCookie = await stack.login(self.email, PASSWORD);
    const changed = await stack.call('PUT', '/api/session/password', {
      body: { current_password: PASSWORD, new_password: 'another long passphrase 2' },
      headers: { Cookie: selfCookie },
    });
    expect(changed.status, changed.text).toBe(200);
    const pw = await one('member.password_changed', self.id);
    expect(pw.actor).toMatchObject({ type: 'user', id: self.id });
    expect(JSON.stringify(pw)).not.toContain('another long passphrase');
  });

  it('sign-in, failed sign-in and sign-out; never a password', async () => {
    const user = await a.user('recruiter');
    const bad = await stack.call('POST', '/api/session', { body: { email: user.email, password: 'wrong password guess' } });
    expect(bad.status).toBe(401);
    const cookie = await stack.login(user.email, PASSWORD);
    expect((await stack.call('DELETE', '/api/session', { headers: { Cookie: cookie } })).status).toBe(200);
    const log = await audit(`target=${user.id}`);
    expect(log.map((r) => r.action)).toEqual(['session.signed_out', 'session.signed_in', 'session.sign_in_failed']);
    for (const r of log) expect(r.actor).toMatchObject({ type: 'user', id: user.id, email: user.email });
    expect(log[2]!.changes).toEqual([{ field: 'reason', after: 'bad_credentials' }]);
    expect(JSON.stringify(log)).not.toMatch(/wrong password|correct horse/);
    // An email that is no member's belongs to no workspace: nothing is recorded anywhere.
    const before = (await audit('action=session.sign_in_failed')).length;
    await stack.call('POST', '/api/session', { body: { email: `nobody-${a.slug}@example.com`, password: 'x'.repeat(12) } });
    expect(await audit('action=session.sign_in_failed')).toHaveLength(before);
  });

  it('webhooks: create, update, test send, resend, replay, rotate, delete; URLs by host only', async () => {
    const created = await asA('POST', '/api/webhooks', { url: receiver.url('/audit?key=s3cret-in-query') });
    expect(created.status, created.text).toBe(201);
    const id = created.body.webhook.id;
    const host = new URL(receiver.url()).host;
    expect((await asA('PATCH', `/api/webhooks/${id}`, { events: ['candidate.created'], description: 'ours' })).status).toBe(200);
    const tested = await asA('POST', `/api/webhooks/${id}/test`);
    expect(tested.status, tested.text).toBe(200);
    const deliveries = await asA('GET', `/api/webhooks/${id}/deliveries`);
    const eventId = deliveries.body.data[0].event_id;
    expect((await asA('POST', `/api/webhooks/${id}/resend`, { event_id: eventId })).status).toBe(202);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect([200, 202]).toContain((await asA('POST', `/api/webhooks/${id}/replay`, { since })).status);
    expect((await asA('POST', `/api/webhooks/${id}/rotate-secret`, { grace_seconds: 0 })).status).toBe(200);
    expect((await asA('DELETE', `/api/webhooks/${id}`)).status).toBe(200);
    const log = await audit(`target=${id}`);
    expect(log.map((r) => r.action).reverse()).toEqual([
      'webhook.created',
      'webhook.updated',
      'webhook.tested',
      'webhook.resent',
      'webhook.replayed',
      'webhook.secret_rotated',
      'webhook.deleted',
    ]);
    expect(log.at(-1)!.changes[0]).toEqual({ field: 'url', after: host });
    expect(log.at(-2)!.changes).toEqual([
      { field: 'events', before: expect.any(Array), after: ['candidate.created'] },
      { field: 'description' },
    ]);
    const text = JSON.stringify(log);
    expect(text).not.toContain('s3cret-in-query');
    expect(text).not.toContain(created.body.webhook.secret);
  });
});

describe('a failed write leaves no record', () => {
  it('a stale move (409), a stale If-Match (412), an unknown token (404), the last admin (409)', async () => {
    const token = await a.token(['*']);
    const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Stale' } });
    const reqId = req.body.data.id;
    const cand = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Stale Move' } });
    const candId = cand.body.data.id;
    const countOf = async (target: string) => (await audit(`target=${target}`)).length;
    const [reqBefore, candBefore] = [await countOf(reqId), await countOf(candId)];
    const stale = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: candId, stage: 'offer_sent', from_stage: 'interviewed' },
    });
    expect(stale.status).toBe(409);
    const ifMatch = await stack.call('PATCH', `/api/v1/requisitions/${reqId}`, {
      token,
      body: { title: 'X' },
      headers: { 'If-Match': '"99"' },
    });
    expect(ifMatch.status).toBe(412);
    const badTransition = await stack.call('POST', `/api/v1/requisitions/${reqId}/status`, {
      token,
      body: { status: 'on_hold', from_status: 'draft', reason: 'Budget' },
    });
    expect(badTransition.status).toBe(409);
    expect(await countOf(candId)).toBe(candBefore);
    expect(await countOf(reqId)).toBe(reqBefore);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await asA('DELETE', `/api/tokens/${unknown}`)).status).toBe(404);
    expect(await countOf(unknown)).toBe(0);
    // The only admin cannot step down.
    const solo = await stack.tenant();
    const soloAdmin = await solo.user('admin');
    const soloCookie = await stack.login(soloAdmin.email, PASSWORD);
    const refused = await stack.call('PATCH', `/api/members/${soloAdmin.id}`, {
      body: { role: 'recruiter' },
      headers: { Cookie: soloCookie },
    });
    expect(refused.status).toBe(409);
    expect(await audit(`target=${soloAdmin.id}`, soloCookie)).toHaveLength(1); // its sign-in only
    expect((await audit(`target=${soloAdmin.id}`, soloCookie))[0]!.action).toBe('session.signed_in');
  });
});

describe('GET /api/audit', () => {
  it('is for admins: a member is refused', async () => {
    const member = await a.user('recruiter');
    const cookie = await stack.login(member.email, PASSWORD);
    const res = await stack.call('GET', '/api/audit', { headers: { Cookie: cookie } });
    expect(res.status).toBe(403);
  });

  it("shows another workspace's admin none of this one's records, even by id", async () => {
    const mine = await audit();
    expect(mine.length).toBeGreaterThan(10);
    const theirs = await audit('', cookieB);
    const ids = new Set(mine.map((r) => r.id));
    expect(theirs.some((r) => ids.has(r.id))).toBe(false);
    // B's log holds B's own sign-in only.
    expect(theirs.map((r) => r.action)).toEqual(['session.signed_in']);
    const target = mine.find((r) => r.target.type === 'candidate')!.target.id;
    expect(await audit(`target=${target}`, cookieB)).toEqual([]);
    expect(await audit(`actor=${adminA.id}`, cookieB)).toEqual([]);
    // A's cursor is refused in B.
    const page = await stack.call('GET', '/api/audit?limit=1', { headers: { Cookie: cookieA } });
    const foreign = await stack.call('GET', `/api/audit?limit=1&cursor=${encodeURIComponent(page.body.next_cursor)}`, {
      headers: { Cookie: cookieB },
    });
    expect(foreign.status).toBe(400);
  });

  it('filters by actor, action, target and time, newest first, and pages with a cursor', async () => {
    const all = await audit();
    const ats = all.map((r) => r.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const byActor = await audit(`actor=${adminA.id}`);
    expect(byActor.length).toBeGreaterThan(5);
    expect(byActor.every((r) => r.actor.id === adminA.id)).toBe(true);
    const byAction = await audit('action=candidate.created');
    expect(byAction).toHaveLength(all.filter((r) => r.action === 'candidate.created').length);
    const combined = await audit(`actor=${adminA.id}&action=candidate.created&limit=1`);
    expect(combined).toEqual(byAction.filter((r) => r.actor.id === adminA.id));
    // Time bounds are inclusive, and pages of 3 give the same records as one page.
    const mid = all[Math.floor(all.length / 2)]!;
    const older = await audit(`to=${encodeURIComponent(mid.at)}&limit=3`);
    expect(older[0]!.at <= mid.at).toBe(true);
    expect(older.map((r) => r.id)).toContain(mid.id);
    expect(older).toEqual(all.filter((r) => r.at <= mid.at));
    const window = await audit(`from=${encodeURIComponent(mid.at)}&to=${encodeURIComponent(mid.at)}`);
    expect(window.map((r) => r.id)).toContain(mid.id);
    expect(
      (await stack.call('GET', '/api/audit?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', { headers: { Cookie: cookieA } })).status,
    ).toBe(400);
  });

  it('reads records written as groups as records: every page size, every filter, none lost or repeated', async () => {
    const c = await stack.tenant();
    const cookie = await stack.login((await c.user('admin')).email, PASSWORD);
    const importer = { type: 'token' as const, id: 'tok-import', name: 'Importer' };
    const person = { type: 'user' as const, id: 'u-person', email: 'someone@example.com' };
    const entry = (actor: typeof importer | typeof person, action: string, target: string, at: string) => ({
      action,
      actor,
      target: { type: 'candidate', id: target },
      changes: [{ field: 'stage', after: 'applied' }],
      at,
    });
    const write = (puts: unknown[]) => ddb.send(new TransactWriteCommand({ TransactItems: puts as never }));
    const t = (s: number) => `2026-05-01T10:00:0${s}.000Z`;
    // Groups of 5, 3 and 1 between single records, one of them in the same millisecond as a group.
    await write(
      auditGroupPuts(
        c.id,
        [1, 2, 3, 4, 5].map((n) => entry(importer, 'candidate.created', `g1-${n}`, t(1))),
      ),
    );
    await write(auditPuts(c.id, entry(person, 'candidate.updated', 'g1-2', t(2))));
    await write(
      auditGroupPuts(
        c.id,
        [1, 2, 3].map((n) => entry(importer, 'candidate.created', `g2-${n}`, t(3))),
      ),
    );
    await write(auditPuts(c.id, entry(person, 'candidate.created', 'solo', t(3))));
    await write(auditGroupPuts(c.id, [entry(importer, 'candidate.created', 'g3-1', t(4))]));
    const read = (query: string) => audit(query, cookie);

    // The log also holds the admin's sign-in (now); the 11 written here are in May.
    const all = await read('limit=100');
    const written = all.filter((r) => r.at.startsWith('2026-05-01'));
    expect(written).toHaveLength(11);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    const order = all.map((r) => `${r.at}#${r.id}`);
    expect([...order].sort().reverse()).toEqual(order);
    // Each grouped record as its own target copy says it.
    for (const r of written) expect((await read(`target=${r.target.id}`)).find((x) => x.id === r.id)).toEqual(r);
    expect(
      written
        .filter((r) => r.actor.id === 'tok-import')
        .map((r) => r.target.id)
        .sort(),
    ).toEqual(['g1-1', 'g1-2', 'g1-3', 'g1-4', 'g1-5', 'g2-1', 'g2-2', 'g2-3', 'g3-1'].sort());

    const filters: [string, (r: Rec) => boolean][] = [
      ['', () => true],
      ['actor=tok-import', (r) => r.actor.id === 'tok-import'],
      ['action=candidate.created', (r) => r.action === 'candidate.created'],
      ['actor=tok-import&action=candidate.created', (r) => r.actor.id === 'tok-import' && r.action === 'candidate.created'],
      ['actor=u-person&action=candidate.created', (r) => r.actor.id === 'u-person' && r.action === 'candidate.created'],
      [`from=${t(3)}&to=${t(3)}`, (r) => r.at === t(3)],
      [`action=candidate.created&to=${t(2)}`, (r) => r.action === 'candidate.created' && r.at <= t(2)],
    ];
    for (const [query, keep] of filters) {
      const want = all.filter(keep);
      expect(want.length, query).toBeGreaterThan(0);
      for (const limit of [1, 2, 3, 4, 6])
        expect(await read(`${query}${query ? '&' : ''}limit=${limit}`), `${query} limit=${limit}`).toEqual(want);
    }
  });

  it('no record holds a candidate name, email or phone, in any copy, nor any intent', async () => {
    await settleAudit();
    const items = await scanTable({
      FilterExpression: '#t IN (:audit, :intent)',
      ExpressionAttributeNames: { '#t': 'type' },
      ExpressionAttributeValues: { ':audit': 'audit', ':intent': 'audit_intent' },
    });
    expect(items.length).toBeGreaterThan(40);
    const text = JSON.stringify(items);
    for (const personal of [
      'Grace Hopper',
      'grace.token@example.com',
      'grace.h.token@example.com',
      'grace.user@example.com',
      'grace.h.user@example.com',
      '555 0143',
      'Stale Move',
    ])
      expect(text).not.toContain(personal);
  });
});
