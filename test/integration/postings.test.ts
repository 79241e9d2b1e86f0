/**
 * A requisition's posting through the token API and the console's twin: the whole-posting PUT
 * and its read, the checks with `field`, roles and visibility, the audit record, and the public
 * read (getPublicPosting / publicPosting) that answers only while the posting is published and the
 * requisition open, through status changes, unpublishing and field edits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPosting } from '../../lib/domain/postings';
import { getPublicPosting } from '../../lib/store/postings';
import { settleAudit } from '../helpers/audit';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
afterAll(() => stack.close());

const newReq = async (body: Record<string, unknown> = {}) =>
  (
    await stack.call('POST', '/api/v1/requisitions', {
      token,
      body: { title: 'Platform Engineer', department: 'Eng', location: 'Berlin', ...body },
    })
  ).body.data.id as string;
const put = (id: string, body: unknown, t = token) => stack.call('PUT', `/api/v1/requisitions/${id}/posting`, { token: t, body });
const get = (id: string, t = token) => stack.call('GET', `/api/v1/requisitions/${id}/posting`, { token: t });
const setStatus = (id: string, status: string, reason?: string) =>
  stack.call('POST', `/api/v1/requisitions/${id}/status`, { token, body: { status, ...(reason && { reason }) } });

const posting = {
  published: true,
  description: '# About\n\nWe build **pipelines**.\n\n- TypeScript\n- AWS',
  remote: 'hybrid',
  remote_countries: ['DE', 'NL'],
  salary: { min: 70000, max: 90000, currency: 'EUR', period: 'year' },
  employment_type: 'direct_hire',
  questions: [
    { id: 'eu_work', type: 'yes_no', label: 'Are you authorised to work in the EU?', required: true },
    { id: 'years', type: 'number', label: 'Years of TypeScript', required: true },
    { id: 'level', type: 'single_choice', label: 'Seniority', options: ['mid', 'senior'] },
  ],
  rules: [
    { question_id: 'eu_work', op: 'eq', value: false, label: 'Not authorised to work in the EU' },
    { question_id: 'years', op: 'lt', value: 3 },
  ],
  outcome: { on_pass: 'move_to_ai_screened', on_fail: 'reject_after_delay' },
};

describe('PUT and GET /api/v1/requisitions/{id}/posting', () => {
  it('writes the whole posting, answers it with an ETag, and reads it back', async () => {
    const id = await newReq();
    const res = await put(id, posting);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.data).toEqual({
      req_id: id,
      published: true,
      listed: true,
      description: posting.description,
      location: null,
      remote: 'hybrid',
      remote_countries: ['DE', 'NL'],
      salary: posting.salary,
      employment_type: 'direct_hire',
      questions: [posting.questions[0], posting.questions[1], { ...posting.questions[2], required: false }],
      rules: posting.rules,
      outcome: { on_pass: 'move_to_ai_screened', on_fail: 'reject_after_delay', reject_delay_hours: 24 },
      cv: 'optional',
      version: 1,
      published_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const read = await get(id);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(res.body.data);
    expect(read.headers.get('etag')).toBe('"1"');
  });

  it('takes a minimal body with its defaults, and the same body again writes nothing', async () => {
    const id = await newReq();
    const first = await put(id, { published: false, description: 'Soon.' });
    expect(first.body.data).toMatchObject({
      published: false,
      listed: false,
      remote: 'no',
      remote_countries: [],
      salary: null,
      questions: [],
      rules: [],
      outcome: { on_pass: 'stay', on_fail: 'flag', reject_delay_hours: 24 },
      cv: 'optional',
      published_at: null,
      version: 1,
    });
    const again = await put(id, { published: false, description: 'Soon.' });
    expect(again.body.data.version).toBe(1);
    const reqBefore = await stack.call('GET', `/api/v1/requisitions/${id}`, { token });
    const changed = await put(id, { published: true, description: 'Now.' });
    expect(changed.body.data).toMatchObject({ version: 2, published: true, listed: true, published_at: changed.body.data.updated_at });
    // A posting write is a change of the requisition: its version (ETag) moves.
    const reqAfter = await stack.call('GET', `/api/v1/requisitions/${id}`, { token });
    expect(Number(JSON.parse(reqAfter.headers.get('etag')!))).toBe(Number(JSON.parse(reqBefore.headers.get('etag')!)) + 1);
  });

  it('answers 404 for a requisition without a posting, and for one that does not exist', async () => {
    const id = await newReq();
    expect((await get(id)).body).toMatchObject({ code: 'not_found', error: 'posting not found' });
    const none = '01a21c29-6adc-732d-8c94-91df4b3e8c8d';
    expect((await get(none)).status).toBe(404);
    expect((await put(none, posting)).body).toMatchObject({ code: 'not_found', error: 'requisition not found' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a rule on the applicant email', { rules: [{ question_id: 'email', op: 'eq', value: 'x' }] }, 'rules[0].question_id'],
    ['a rule on a question not asked', { rules: [{ question_id: 'degree', op: 'eq', value: true }] }, 'rules[0].question_id'],
    ['an unknown currency', { salary: { ...posting.salary, currency: 'XYZ' } }, 'salary.currency'],
    ['a salary range upside down', { salary: { ...posting.salary, min: 100000 } }, 'salary.max'],
    ['an unknown remote kind', { remote: 'sometimes' }, 'remote'],
    ['a question type not offered', { questions: [{ id: 'q', type: 'date', label: 'When?' }] }, 'questions[0].type'],
    ['a question id with spaces', { questions: [{ id: 'q 1', type: 'yes_no', label: 'Q?' }] }, 'questions[0].id'],
    ['a description with a NUL', { description: 'a\u0000b' }, 'description'],
    ['an unknown field', { title: 'x' }, 'title'],
    ['a delay beyond 30 days', { outcome: { reject_delay_hours: 721 } }, 'outcome.reject_delay_hours'],
  ])('refuses %s with 400 naming the field', async (_name, over, field) => {
    const id = await newReq();
    const res = await put(id, { ...posting, ...over });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_field', field });
    expect((await get(id)).status).toBe(404);
  });

  it('needs requisitions:write to write and requisitions:read to read', async () => {
    const id = await newReq();
    const reader = await tenant.token(['requisitions:read']);
    expect((await put(id, posting, reader)).body).toMatchObject({ code: 'missing_scope' });
    expect((await put(id, posting)).status).toBe(200);
    expect((await get(id, reader)).status).toBe(200);
    const other = await tenant.token(['candidates:read']);
    expect((await get(id, other)).body).toMatchObject({ code: 'missing_scope' });
  });

  it("never reads or writes another workspace's posting", async () => {
    const id = await newReq();
    await put(id, posting);
    const other = await stack.tenant();
    const theirs = await other.token(['*']);
    expect((await get(id, theirs)).status).toBe(404);
    expect((await put(id, { ...posting, description: 'Taken over' }, theirs)).status).toBe(404);
    expect((await get(id)).body.data.description).toBe(posting.description);
  });

  it('works through the console twin for a recruiter; a hiring manager reads only their own requisitions and never writes', async () => {
    const recruiter = await tenant.user('recruiter');
    const cookie = await stack.login(recruiter.email, PASSWORD);
    const id = await newReq();
    const res = await stack.call('PUT', `/api/requisitions/${id}/posting`, {
      body: posting,
      headers: { cookie, origin: stack.url },
    });
    expect(res.status).toBe(200);
    const hm = await tenant.user('hiring_manager');
    const hmCookie = await stack.login(hm.email, PASSWORD);
    const hmGet = (rid: string) => stack.call('GET', `/api/requisitions/${rid}/posting`, { headers: { cookie: hmCookie } });
    expect((await hmGet(id)).status).toBe(404);
    const theirs = await newReq({ hiring_manager_ids: [hm.id] });
    await put(theirs, posting);
    expect((await hmGet(theirs)).status).toBe(200);
    const hmPut = await stack.call('PUT', `/api/requisitions/${theirs}/posting`, {
      body: posting,
      headers: { cookie: hmCookie, origin: stack.url },
    });
    expect(hmPut.status).toBe(403);
  });

  it('records the change in the audit log: scalar fields with values, the description and lists by name', async () => {
    const id = await newReq();
    await put(id, posting);
    await put(id, { ...posting, published: false, description: 'Changed', rules: [] });
    await settleAudit();
    const admin = await tenant.user('admin');
    const cookie = await stack.login(admin.email, PASSWORD);
    const res = await stack.call('GET', `/api/audit?target=${id}`, { headers: { cookie } });
    const entries = (res.body.data as { action: string; changes: { field: string; before?: unknown; after?: unknown }[] }[]).filter(
      (e) => e.action === 'requisition.posting_updated',
    );
    expect(entries).toHaveLength(2);
    const latest = entries[0]!;
    expect(latest.changes).toEqual(
      expect.arrayContaining([{ field: 'published', before: true, after: false }, { field: 'description' }, { field: 'rules' }]),
    );
    expect(JSON.stringify(latest.changes)).not.toContain('Changed');
  });
});

describe('the public posting: published AND open, and nothing else', () => {
  it('answers while published and open; not while a draft, on hold, closed or unpublished; again once open', async () => {
    const id = await newReq({ status: 'draft' });
    await put(id, posting);
    expect(await getPublicPosting(tenant.id, id)).toBeUndefined();
    expect((await setStatus(id, 'open')).status).toBe(200);
    expect(await getPublicPosting(tenant.id, id)).toMatchObject({
      title: 'Platform Engineer',
      department: 'Eng',
      location: 'Berlin',
      employment_type: 'direct_hire',
      posting: { published: true, questions: posting.questions.map((q) => expect.objectContaining({ id: q.id })) },
    });
    expect((await get(id)).body.data.listed).toBe(true);
    expect((await setStatus(id, 'on_hold', 'budget')).status).toBe(200);
    expect(await getPublicPosting(tenant.id, id)).toBeUndefined();
    expect((await get(id)).body.data.listed).toBe(false);
    await setStatus(id, 'open');
    expect(await getPublicPosting(tenant.id, id)).toBeDefined();
    await put(id, { ...posting, published: false });
    expect(await getPublicPosting(tenant.id, id)).toBeUndefined();
    // Opening again does not list an unpublished posting.
    await setStatus(id, 'closed', 'done');
    await setStatus(id, 'open');
    expect(await getPublicPosting(tenant.id, id)).toBeUndefined();
    await put(id, posting);
    expect(await getPublicPosting(tenant.id, id)).toBeDefined();
    await setStatus(id, 'closed', 'done');
    expect(await getPublicPosting(tenant.id, id)).toBeUndefined();
  });

  it("follows the requisition's title, department and location edits", async () => {
    const id = await newReq();
    await put(id, { ...posting, employment_type: null });
    await stack.call('PATCH', `/api/v1/requisitions/${id}`, {
      token,
      body: { title: 'Staff Engineer', department: null, job_type: 'contract' },
    });
    expect(await getPublicPosting(tenant.id, id)).toMatchObject({
      title: 'Staff Engineer',
      department: null,
      location: 'Berlin',
      employment_type: 'contract',
    });
    await put(id, { ...posting, location: 'Remote, EU' });
    expect((await getPublicPosting(tenant.id, id))?.location).toBe('Remote, EU');
  });

  it('by careers slug: an unknown slug and another workspace answer as none', async () => {
    const id = await newReq();
    await put(id, posting);
    expect(await publicPosting(tenant.slug, id)).toMatchObject({ tenantId: tenant.id, title: 'Platform Engineer' });
    const other = await stack.tenant();
    expect(await publicPosting(other.slug, id)).toBeUndefined();
    expect(await publicPosting('no-such-workspace', id)).toBeUndefined();
  });
});
