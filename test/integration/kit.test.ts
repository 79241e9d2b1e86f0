/**
 * The test kit's fixtures (test/helpers/fixtures.ts) give what they say: one stack for the file,
 * a fresh workspace per test whose token reaches only that workspace, the typed client, and a
 * signed-in member of every role of lib/model.ts.
 */
import { describe, expect } from 'vitest';
import { ROLES } from '../../lib/model';
import { asMember, stackTest } from '../helpers/fixtures';

const test = stackTest();
const seen: { url: string; workspace: string; candidate: string }[] = [];

describe('the fixtures', () => {
  test('a token with every scope reaches its own workspace', async ({ stack, workspace, token }) => {
    const created = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Kit One' } });
    expect(created.status).toBe(201);
    const listed = await stack.call('GET', '/api/v1/candidates', { token });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([created.body.data.id]);
    seen.push({ url: stack.url, workspace: workspace.id, candidate: created.body.data.id });
  });

  test('the next test gets the same stack and a new workspace, which sees nothing of the first', async ({ stack, workspace, token }) => {
    expect(seen).toHaveLength(1);
    expect(stack.url).toBe(seen[0]!.url);
    expect(workspace.id).not.toBe(seen[0]!.workspace);
    expect((await stack.call('GET', '/api/v1/candidates', { token })).body.data).toEqual([]);
    expect((await stack.call('GET', `/api/v1/candidates/${seen[0]!.candidate}`, { token })).status).toBe(404);
  });

  test('the typed client sends with the token and answers typed, contract-checked bodies', async ({ api }) => {
    const created = await api.POST('/api/v1/candidates', { body: { name: 'Kit Typed', email: 'kit@example.com' } });
    expect(created.response.status).toBe(201);
    const id = created.data!.data.id;
    const read = await api.GET('/api/v1/candidates/{id}', { params: { path: { id } } });
    expect(read.data!.data).toMatchObject({ id, name: 'Kit Typed', email: 'kit@example.com', stage: 'applied' });
    const refused = await api.POST('/api/v1/candidates', { body: { name: '' } });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ field: 'name' });
  });

  test('a member of each role, signed in with that role in that workspace', async ({ stack, workspace, members }) => {
    expect(Object.keys(members).sort()).toEqual([...ROLES].sort());
    for (const role of ROLES) {
      const m = members[role];
      const session = await stack.call('GET', '/api/session', asMember(m));
      expect(session.status).toBe(200);
      expect(session.body.data.user).toEqual({
        id: m.id,
        email: m.email,
        role,
        must_change_password: false,
        two_factor_enabled: false,
        time_zone: null,
      });
      expect(session.body.data.tenant.slug).toBe(workspace.slug);
    }
  });
});
