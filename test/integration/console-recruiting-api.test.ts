/**
 * The console's twins of the recruiting routes (`/api/candidates`, `/api/requisitions`,
 * `/api/pipeline`): the same handlers as the `/api/v1` routes, reached with the cookie session.
 * Any member does recruiting work; writes obey the CSRF rule; the actor recorded is the person;
 * another workspace's session reaches nothing; the token routes still take tokens only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type Route } from '../../lib/routes';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let member: { id: string; email: string };
let cookieMember: string;
let cookieOther: string;
let tokenA: string;

beforeAll(async () => {
  stack = await startStack();
  [a, b] = [await stack.tenant(), await stack.tenant()];
  member = await a.user('recruiter');
  const otherAdmin = await b.user('admin');
  [cookieMember, cookieOther] = [await stack.login(member.email, PASSWORD), await stack.login(otherAdmin.email, PASSWORD)];
  tokenA = await a.token(['*']);
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown, headers: Record<string, string> = {}) => ({
  headers: { Cookie: cookie, ...headers },
  ...(body !== undefined && { body }),
});

const TWINS = routes.filter((r) => r.twinOf);

describe('the route table', () => {
  it('gives the console a session twin of each recruiting route, on the same handler', () => {
    expect(TWINS.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        'GET /api/candidates',
        'POST /api/candidates',
        'GET /api/candidates/{id}',
        'PATCH /api/candidates/{id}',
        'POST /api/candidates/{id}/erase',
        'POST /api/candidates/{id}/screening/overturn',
        'GET /api/people/{id}',
        'POST /api/people/{id}/merge',
        'POST /api/candidates/imports',
        'GET /api/candidates/imports/{id}',
        'GET /api/candidates/imports/{id}/errors',
        'GET /api/requisitions',
        'POST /api/requisitions',
        'GET /api/requisitions/{id}',
        'PATCH /api/requisitions/{id}',
        'POST /api/requisitions/{id}/status',
        'GET /api/requisitions/{id}/interview-plan',
        'PUT /api/requisitions/{id}/interview-plan',
        'POST /api/candidates/{id}/interviews',
        'GET /api/interviews',
        'GET /api/interviews/{id}',
        'PATCH /api/interviews/{id}',
        'DELETE /api/interviews/{id}',
        'GET /api/requisitions/{id}/posting',
        'PUT /api/requisitions/{id}/posting',
        'POST /api/interviews/{id}/scorecards',
        'GET /api/interviews/{id}/scorecards',
        'GET /api/candidates/{id}/scorecards',
        'POST /api/pipeline',
        'POST /api/candidates/{id}/offers',
        'GET /api/candidates/{id}/offers',
        'GET /api/offers/{id}',
        'PATCH /api/offers/{id}',
        'POST /api/offers/{id}/status',
        'GET /api/placements',
        'GET /api/placements/{id}',
        'PATCH /api/placements/{id}',
        'POST /api/placements/{id}/cancel',
        'POST /api/candidates/{id}/placement',
        'POST /api/people/{id}/notes',
        'GET /api/people/{id}/notes',
        'GET /api/people/{id}/notes/{note_id}',
        'PATCH /api/people/{id}/notes/{note_id}',
        'DELETE /api/people/{id}/notes/{note_id}',
        'GET /api/people/{id}/activity',
        'POST /api/uploads',
        'GET /api/uploads/limits',
        'GET /api/uploads/{id}',
        'POST /api/people/{id}/files',
        'GET /api/people/{id}/files',
        'GET /api/people/{id}/files/{file_id}',
        'GET /api/people/{id}/files/{file_id}/text',
        'GET /api/people/{id}/files/{file_id}/download',
        'DELETE /api/people/{id}/files/{file_id}',
      ].sort(),
    );
    for (const twin of TWINS) {
      const line = routes.find((r) => r.path === twin.twinOf && r.method === twin.method)!;
      expect({ handler: twin.handler, auth: twin.auth, role: twin.role, scope: twin.scope }).toEqual({
        handler: line.handler,
        auth: 'session',
        // Any member, unless the line asks for a role on its twin (erasure: admins only).
        role: typeof line.console === 'object' ? line.console.role : undefined,
        scope: undefined,
      });
      expect(line.auth).toBe('token');
    }
  });
});

describe('a member does the recruiting work in the console', () => {
  it('creates, reads, edits and moves; the history names the person; the answers equal the API', async () => {
    const req = await stack.call('POST', '/api/requisitions', as(cookieMember, { title: 'Console Engineer', headcount: 2 }));
    expect(req.status, req.text).toBe(201);
    const reqId = req.body.data.id as string;

    const created = await stack.call(
      'POST',
      '/api/candidates',
      as(cookieMember, { name: 'Grace Console', email: 'grace@example.com', req_id: reqId }),
    );
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;

    const patched = await stack.call('PATCH', `/api/candidates/${id}`, as(cookieMember, { email: 'grace.hopper@example.com' }));
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.email).toBe('grace.hopper@example.com');

    const moved = await stack.call(
      'POST',
      '/api/pipeline',
      as(cookieMember, { candidate_id: id, stage: 'interview_scheduled', from_stage: 'applied' }),
    );
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.stage).toBe('interview_scheduled');

    const viaSession = await stack.call('GET', `/api/candidates/${id}`, as(cookieMember));
    const viaToken = await stack.call('GET', `/api/v1/candidates/${id}`, { token: tokenA });
    expect(viaSession.status).toBe(200);
    expect(viaSession.body).toEqual(viaToken.body);
    expect(viaSession.body.data.stage_history.at(-1)).toMatchObject({
      stage: 'interview_scheduled',
      from_stage: 'applied',
      actor: { type: 'user', id: member.id, email: member.email },
    });

    const list = await stack.call('GET', `/api/candidates?req_id=${reqId}`, as(cookieMember));
    expect(list.status).toBe(200);
    expect(list.body).toEqual((await stack.call('GET', `/api/v1/candidates?req_id=${reqId}`, { token: tokenA })).body);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
  });

  it('runs a requisition: If-Match edits, a status change with its reason recorded under the person', async () => {
    const req = await stack.call('POST', '/api/requisitions', as(cookieMember, { title: 'Lifecycle Role' }));
    const id = req.body.data.id as string;
    const got = await stack.call('GET', `/api/requisitions/${id}`, as(cookieMember));
    const etag = got.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const edited = await stack.call('PATCH', `/api/requisitions/${id}`, as(cookieMember, { location: 'Lisbon' }, { 'If-Match': etag }));
    expect(edited.status, edited.text).toBe(200);
    const stale = await stack.call('PATCH', `/api/requisitions/${id}`, as(cookieMember, { location: 'Porto' }, { 'If-Match': etag }));
    expect([stale.status, stale.body.code]).toEqual([412, 'stale_requisition']);

    const noReason = await stack.call('POST', `/api/requisitions/${id}/status`, as(cookieMember, { status: 'on_hold' }));
    expect([noReason.status, noReason.body.field]).toEqual([400, 'reason']);
    const held = await stack.call(
      'POST',
      `/api/requisitions/${id}/status`,
      as(cookieMember, { status: 'on_hold', reason: 'Budget review' }),
    );
    expect(held.status, held.text).toBe(200);
    const detail = await stack.call('GET', `/api/requisitions/${id}`, as(cookieMember));
    expect(detail.body.data.status_history.at(-1)).toMatchObject({
      from: 'open',
      to: 'on_hold',
      reason: 'Budget review',
      actor: { type: 'user', id: member.id, email: member.email },
    });

    const refused = await stack.call('POST', '/api/candidates', as(cookieMember, { name: 'Too Late', req_id: id }));
    expect([refused.status, refused.body.code]).toEqual([409, 'requisition_not_open']);
  });

  it('honours Idempotency-Key on the console writes as on the API', async () => {
    const key = randomUUID();
    const first = await stack.call('POST', '/api/candidates', as(cookieMember, { name: 'Once Only' }, { 'Idempotency-Key': key }));
    const again = await stack.call('POST', '/api/candidates', as(cookieMember, { name: 'Once Only' }, { 'Idempotency-Key': key }));
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
  });
});

describe('the CSRF rule applies to every console write', () => {
  const writes = TWINS.filter((r) => r.method !== 'GET');
  const bodyFor = (r: Route) =>
    r.path.startsWith('/api/requisitions')
      ? r.path.endsWith('/status')
        ? { status: 'closed', reason: 'x' }
        : { title: 'CSRF' }
      : r.path === '/api/pipeline'
        ? { candidate_id: randomUUID(), stage: 'placed' }
        : { name: 'CSRF' };

  it('refuses a cross-site Origin or Sec-Fetch-Site with 403 and writes nothing', async () => {
    const before = (await stack.call('GET', '/api/v1/candidates', { token: tokenA })).body.count;
    for (const r of writes) {
      for (const headers of [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'cross-site' }] as Record<string, string>[]) {
        const res = await stack.call(r.method, r.path.replace('{id}', randomUUID()), as(cookieMember, bodyFor(r), headers));
        expect([res.status, res.body], `${r.method} ${r.path} ${JSON.stringify(headers)}`).toEqual([
          403,
          { error: 'cross-site request refused', code: 'forbidden' },
        ]);
      }
    }
    expect((await stack.call('GET', '/api/v1/candidates', { token: tokenA })).body.count).toBe(before);
  });

  it('accepts the console its own origin', async () => {
    const host = new URL(stack.url).host;
    const res = await stack.call(
      'POST',
      '/api/candidates',
      as(cookieMember, { name: 'Same Origin' }, { Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' }),
    );
    expect(res.status, res.text).toBe(201);
  });

  it('leaves the token routes as they were: a Bearer write needs no Origin and a cookie is no token', async () => {
    const res = await stack.call('POST', '/api/v1/candidates', {
      token: tokenA,
      body: { name: 'Api Client' },
      headers: { Origin: 'https://evil.example' },
    });
    expect(res.status).toBe(201);
    const cookieOnly = await stack.call('GET', '/api/v1/candidates', as(cookieMember));
    expect(cookieOnly.status).toBe(401);
  });
});

describe("another workspace's session reaches none of it", () => {
  it('404 on reads and writes by id, and the lists hold only its own', async () => {
    const req = await stack.call('POST', '/api/requisitions', as(cookieMember, { title: 'Private Role' }));
    const reqId = req.body.data.id as string;
    const cand = await stack.call(
      'POST',
      '/api/candidates',
      as(cookieMember, { name: 'Private Person', email: 'private@example.com', req_id: reqId }),
    );
    const id = cand.body.data.id as string;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/candidates/${id}`],
      ['PATCH', `/api/candidates/${id}`, { name: 'Taken Over' }],
      ['POST', '/api/pipeline', { candidate_id: id, stage: 'rejected' }],
      ['GET', `/api/requisitions/${reqId}`],
      ['PATCH', `/api/requisitions/${reqId}`, { title: 'Taken Over' }],
      ['POST', `/api/requisitions/${reqId}/status`, { status: 'closed', reason: 'Taken over' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await stack.call(method, path, as(cookieOther, body));
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
    }
    const list = await stack.call('GET', `/api/candidates?req_id=${reqId}`, as(cookieOther));
    expect(list.status).toBe(404);
    const all = await stack.call('GET', '/api/candidates', as(cookieOther));
    expect(all.body.data.map((c: { id: string }) => c.id)).not.toContain(id);
    const reqs = await stack.call('GET', '/api/requisitions', as(cookieOther));
    expect(reqs.body.data.map((r: { id: string }) => r.id)).not.toContain(reqId);
    const mine = await stack.call('GET', `/api/candidates/${id}`, as(cookieMember));
    expect(mine.body.data).toMatchObject({ name: 'Private Person', stage: 'applied', req_id: reqId });
    expect(stack.logs.join('\n')).not.toContain('private@example.com');
  });
});
