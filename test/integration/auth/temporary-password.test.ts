/**
 * A temporary password (a new member's, or one an admin reset) opens only three session routes
 * until it is changed: reading the session, the password change and signing out. Every other
 * session route answers 403 `password_change_required` and does nothing; the list comes from the
 * route table, so a new route is covered (and closed) without a change here.
 */
import { settleAudit } from '../../helpers/audit';
import { describe, expect, it } from 'vitest';
import type { Route } from '../../../lib/routes';
import { PASSWORD } from '../../helpers/stack';
import { SESSION_ROUTES, callRoute, cookie, expectSample, label, logsOut, probeIdFor, stack, useAuthFixture } from './fixture';

useAuthFixture();

const OPEN = ['GET /api/session', 'DELETE /api/session', 'PUT /api/session/password'];
const asAdmin = () => ({ headers: { Cookie: cookie } });

/** A new admin member (so no role check answers first) and its temporary password. */
async function newMember(): Promise<{ id: string; email: string; password: string }> {
  const email = `temp-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const res = await stack.call('POST', '/api/members', { body: { email, role: 'admin' }, ...asAdmin() });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.data.member.id, email, password: res.body.data.temporary_password };
}

/** What a refused request must leave alone: the workspace's tokens, members, webhooks and audit log. */
async function workspace() {
  await settleAudit();
  const [tokens, members, hooks, audit] = await Promise.all(
    ['/api/tokens', '/api/members', '/api/webhooks', '/api/audit?limit=100'].map((p) => stack.call('GET', p, asAdmin())),
  );
  return {
    tokens: tokens!.body.data,
    members: members!.body.data,
    hooks: hooks!.body.data,
    // A refused request writes no record; the readers' own requests write none either.
    audit: (audit!.body.data as { id: string }[]).map((r) => r.id),
  };
}

describe('a temporary password opens only the session, the password change and sign-out', () => {
  it('the route table opens exactly those three', () => {
    expect(
      SESSION_ROUTES.filter((r) => r.beforePasswordChange)
        .map(label)
        .sort(),
    ).toEqual([...OPEN].sort());
  });

  it('every other session route answers 403 password_change_required and changes nothing', async () => {
    const member = await newMember();
    const temp = await stack.login(member.email, member.password);
    const before = await workspace();
    for (const r of SESSION_ROUTES.filter((x) => !OPEN.includes(label(x)))) {
      const res = await callRoute(r, { cookie: temp, id: probeIdFor(r) });
      expect([res.status, res.body], label(r)).toEqual([
        403,
        {
          error: 'change your temporary password first (PUT /api/session/password)',
          code: 'password_change_required',
        },
      ]);
    }
    expect(await workspace()).toEqual(before);
    // The session is still good for the routes open to it.
    const session = await stack.call('GET', '/api/session', { headers: { Cookie: temp } });
    expect([session.status, session.body.data.user.must_change_password]).toEqual([200, true]);
  });

  it('the three open routes answer as for anyone', async () => {
    const member = await newMember();
    for (const r of SESSION_ROUTES.filter((x) => OPEN.includes(label(x))) as Route[]) {
      const temp = await stack.login(member.email, member.password);
      const res = await callRoute(r, { cookie: temp });
      expectSample(r, res);
      if (!logsOut(r)) expect((await stack.call('GET', '/api/session', { headers: { Cookie: temp } })).status).toBe(200);
    }
  });

  it('after the password change, the same session reaches every route; a later reset closes them again', async () => {
    const member = await newMember();
    const temp = await stack.login(member.email, member.password);
    const refused = await stack.call('POST', '/api/tokens', { body: { name: 'x', scopes: ['pipeline:read'] }, headers: { Cookie: temp } });
    expect([refused.status, refused.body.code]).toEqual([403, 'password_change_required']);
    const changed = await stack.call('PUT', '/api/session/password', {
      body: { current_password: member.password, new_password: PASSWORD },
      headers: { Cookie: temp },
    });
    expect(changed.status, changed.text).toBe(200);
    const token = await stack.call('POST', '/api/tokens', { body: { name: 'x', scopes: ['pipeline:read'] }, headers: { Cookie: temp } });
    expect(token.status, token.text).toBe(201);
    expect((await stack.call('GET', '/api/audit', { headers: { Cookie: temp } })).status).toBe(200);
    const session = await stack.call('GET', '/api/session', { headers: { Cookie: temp } });
    expect(session.body.data.user.must_change_password).toBe(false);

    const reset = await stack.call('POST', `/api/members/${member.id}/reset-password`, asAdmin());
    expect(reset.status, reset.text).toBe(200);
    expect((await stack.call('GET', '/api/session', { headers: { Cookie: temp } })).status).toBe(401);
    const again = await stack.login(member.email, reset.body.data.temporary_password);
    const audit = await stack.call('GET', '/api/audit', { headers: { Cookie: again } });
    expect([audit.status, audit.body.code]).toEqual([403, 'password_change_required']);
  });
});
