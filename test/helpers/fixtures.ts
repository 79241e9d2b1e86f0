/**
 * vitest fixtures for the integration tier: a stack per file, and per test a fresh workspace, a
 * token with every scope, the typed client with that token, and a signed-in member of each role.
 * A test names what it needs and gets only that:
 *
 *   const test = stackTest();                      // or stackTest({ webhooks: {} }) ...
 *   test('lists candidates', async ({ api }) => { const { data } = await api.GET('/api/v1/candidates'); ... });
 *   test('a member may not', async ({ stack, members }) => { members.member.cookie ... });
 *
 * The roles are lib/model.ts ROLES: a role added there gets its member here with no change.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'vitest';
import { ROLES, type Role } from '../../lib/model';
import { apiClient, type Api } from './api';
import { PASSWORD, startStack, type Stack, type StackOptions, type TestTenant } from './stack';

export interface Member {
  id: string;
  email: string;
  role: Role;
  /** The `Cookie` header value of a session signed in with PASSWORD. */
  cookie: string;
}

/** `{ headers: { Cookie } }` for `stack.call`, from a member or a cookie. */
export const asMember = (m: Pick<Member, 'cookie'>) => ({ headers: { Cookie: m.cookie } });

export function stackTest(opts: StackOptions = {}) {
  return (
    test
      // vitest reads a fixture's dependencies from its first parameter's destructuring: none here.
      // biome-ignore lint/correctness/noEmptyPattern: vitest requires the pattern
      .extend('stack', { scope: 'file' }, async ({}, { onCleanup }): Promise<Stack> => {
        const stack = await startStack(opts);
        onCleanup(() => stack.close());
        return stack;
      })
      .extend('workspace', async ({ stack }): Promise<TestTenant> => stack.tenant())
      .extend('token', async ({ workspace }): Promise<string> => workspace.token())
      // The typed client (test/helpers/api.ts) with that token: the way for a new test to call the API.
      .extend('api', async ({ stack, token }): Promise<Api> => apiClient(stack, { token }))
      .extend('members', async ({ stack, workspace }): Promise<Record<Role, Member>> => {
        const entries = await Promise.all(
          ROLES.map(async (role) => {
            const user = await workspace.user(role, `${role}-${randomUUID().slice(0, 8)}@${workspace.slug}.example.com`);
            return [role, { ...user, role, cookie: await stack.login(user.email, PASSWORD) }] as const;
          }),
        );
        return Object.fromEntries(entries) as Record<Role, Member>;
      })
  );
}
