/**
 * The role × route sweep: every route of the table, called by a signed-in user of each role
 * (session routes) and with a personal token of each role holding every scope the role may
 * (token routes), against the real handlers. The expected status comes from the permission table
 * (lib/permissions.ts): the route's sample answer (test/integration/auth/fixture.ts) when the
 * role may call it, else 403.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../../lib/model';
import { may, scopesOf } from '../../../lib/permissions';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../../lib/store/client';
import { keys } from '../../../lib/store/table';
import { PASSWORD } from '../../helpers/stack';
import { callRoute, label, logsOut, sampleFor, SESSION_ROUTES, stack, tenant, TOKEN_ROUTES, useAuthFixture } from './fixture';

useAuthFixture();

const callers = new Map<Role, { cookie: string; token: string }>();

beforeAll(async () => {
  for (const role of ROLES) {
    const u = await tenant.user(role);
    const cookie = await stack.login(u.email, PASSWORD);
    const made = await stack.call('POST', '/api/tokens', {
      headers: { Cookie: cookie },
      body: { name: `sweep ${role}`, scopes: [...scopesOf(role)] },
    });
    expect(made.status, made.text).toBe(201);
    callers.set(role, { cookie, token: made.body.data.token });
  }
});

/** What the table says the role gets: the sample's answer, or 403. */
const expected = (role: Role, r: (typeof SESSION_ROUTES)[number]) => (may(role, label(r)) ? sampleFor(r).status : 403);

// One test per route: the sweep grows with the route table, and each call's first use of a
// function pays for loading its module, so a single test over every route ran close to its timeout.
const sessionRoutes = SESSION_ROUTES.filter((x) => !logsOut(x)).map((r) => [label(r), r] as const);
const tokenRoutes = TOKEN_ROUTES.map((r) => [label(r), r] as const);

describe.each(ROLES)('%s', (role) => {
  describe('calls each session route as the permission table says', () => {
    it.each(sessionRoutes)('%s', async (_label, r) => {
      const { cookie } = callers.get(role)!;
      // A token of one's own scopes: the sample's scope is beyond an interviewer's.
      const res =
        r.method === 'POST' && r.path === '/api/tokens'
          ? await stack.call('POST', '/api/tokens', { headers: { Cookie: cookie }, body: { name: 'sweep', scopes: [scopesOf(role)[0]] } })
          : await callRoute(r, { cookie });
      expect(res.status, `${role} ${label(r)}: ${res.text}`).toBe(expected(role, r));
      if (res.status === 403) expect(res.body.code, `${role} ${label(r)}`).toBe('forbidden');
    });
  });

  describe('calls each token route, with a personal token of every scope the role may hold, as the table says', () => {
    it.each(tokenRoutes)('%s', async (_label, r) => {
      const { token } = callers.get(role)!;
      const res = await callRoute(r, { token });
      expect(res.status, `${role} ${label(r)}: ${res.text}`).toBe(expected(role, r));
    });
  });
});

it('a refusal names the role, and a token names its creator’s', async () => {
  const { cookie, token } = callers.get('hiring_manager')!;
  const byCookie = await stack.call('POST', '/api/requisitions', { headers: { Cookie: cookie }, body: { title: 'Nope' } });
  expect([byCookie.status, byCookie.body.error]).toEqual([403, expect.stringMatching(/^a hiring_manager may not /)]);
  const byToken = await stack.call('PATCH', `/api/v1/requisitions/${randomUUID()}`, { token, body: { title: 'Nope' } });
  expect([byToken.status, byToken.body.error]).toEqual([
    403,
    expect.stringMatching(/^this token acts as its creator, a hiring_manager, and a hiring_manager may not /),
  ]);
});

it('a user stored as `member` before roles were split is a recruiter: signs in, mints within the role, listed as recruiter', async () => {
  const u = await tenant.user('recruiter');
  // As the item was written before: no migration rewrites it.
  await ddb.send(
    new UpdateCommand({
      TableName: stack.tableName,
      Key: keys.user(tenant.id, u.id),
      UpdateExpression: 'SET #role = :member',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':member': 'member' },
    }),
  );
  const cookie = await stack.login(u.email, PASSWORD);
  const session = await stack.call('GET', '/api/session', { headers: { Cookie: cookie } });
  expect(session.body.data.user.role).toBe('recruiter');
  // The token write's check on the user item takes the stored `member` for the recruiter it is.
  const made = await stack.call('POST', '/api/tokens', {
    headers: { Cookie: cookie },
    body: { name: 'legacy', scopes: ['candidates:read', 'requisitions:read'] },
  });
  expect(made.status, made.text).toBe(201);
  expect((await stack.call('GET', '/api/v1/requisitions', { token: made.body.data.token })).status).toBe(200);
  const members = await stack.call('GET', '/api/members', { headers: { Cookie: cookie } });
  expect(members.body.data.find((m: { id: string }) => m.id === u.id).role).toBe('recruiter');
  // `member` is still taken on input, as the recruiter it is.
  const admin = callers.get('admin')!.cookie;
  const changed = await stack.call('PATCH', `/api/members/${u.id}`, { headers: { Cookie: admin }, body: { role: 'member' } });
  expect([changed.status, changed.body.data.role]).toEqual([200, 'recruiter']);
});
