/**
 * Shared setup of the console's session-route tests (test/integration/console-api/*.test.ts): two
 * workspaces, A with an admin and a member (recruiter) and B with an admin, each signed in, plus
 * `workspace()` for tests that change membership and must not disturb the shared users. Each test
 * file calls `useConsoleFixture()` at its top and gets its own stack: in the shared graph this
 * module loads once per worker, not once per file.
 */
import { afterAll, beforeAll } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../helpers/stack';

export let stack: Stack;
export let a: TestTenant;
export let b: TestTenant;
export let adminA: { id: string; email: string };
export let memberA: { id: string; email: string };
export let adminB: { id: string; email: string };
export let cookieAdminA: string;
export let cookieMemberA: string;
export let cookieAdminB: string;

/** Registers the file's set-up and tear-down: call it at the top of each test file. */
export function useConsoleFixture() {
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
  afterAll(() => stack?.close());
}

export const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });

/** A tenant of its own with one admin signed in, for tests that change membership. */
export async function workspace() {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  return { t, admin, cookie: await stack.login(admin.email, PASSWORD) };
}
