/**
 * A person with one candidate, made as a client makes one: POST /api/v1/candidates, whose answer
 * names the person it matched or created.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Role } from '../../lib/model';
import { PASSWORD, type Stack, type TestTenant } from './stack';

export async function newPerson(stack: Stack, token: string, body: Record<string, unknown> = {}) {
  const res = await stack.call('POST', '/api/v1/candidates', {
    token,
    body: { name: 'Noor Notes', email: `noor-${randomUUID().slice(0, 8)}@example.com`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  expect(typeof res.body.data.person_id, res.text).toBe('string');
  return { personId: res.body.data.person_id as string, candidateId: res.body.data.id as string };
}

/**
 * A named cast of the workspace's members, each made with its role and signed in: a panel of
 * several interviewers, a hiring manager, a recruiter, as a test names them.
 */
export async function signedInMembers<K extends string>(stack: Stack, tenant: TestTenant, cast: Record<K, Role>) {
  const out = {} as Record<K, { id: string; cookie: string }>;
  for (const key of Object.keys(cast) as K[]) {
    const u = await tenant.user(cast[key]);
    out[key] = { id: u.id, cookie: await stack.login(u.email, PASSWORD) };
  }
  return out;
}
