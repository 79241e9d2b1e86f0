/**
 * The public board, with no token or session: a workspace's listed jobs and one job, CORS for any
 * origin, ETag and 304, cursor paging and filters, and isolation: another workspace's slug never
 * shows yours, an unknown slug answers as a workspace without postings, and an unpublished
 * posting or one whose requisition is not open answers 404 on every public route. The board index
 * follows status changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesBoardFilters } from '../../lib/domain/boards';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';
import { until } from '../helpers/until';

let stack: Stack;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
afterAll(() => stack.close());

const newReq = async (body: Record<string, unknown>, t = token) =>
  (await stack.call('POST', '/api/v1/requisitions', { token: t, body })).body.data.id as string;
const publish = (id: string, body: Record<string, unknown> = {}, t = token) =>
  stack.call('PUT', `/api/v1/requisitions/${id}/posting`, {
    token: t,
    body: { published: true, description: 'We build **things**.', ...body },
  });
const setStatus = (id: string, status: string, reason?: string) =>
  stack.call('POST', `/api/v1/requisitions/${id}/status`, { token, body: { status, ...(reason && { reason }) } });
const board = (slug: string, query = '', headers: Record<string, string> = {}) =>
  stack.call('GET', `/api/boards/${slug}/jobs${query}`, { headers });
const job = (slug: string, id: string, headers: Record<string, string> = {}) =>
  stack.call('GET', `/api/boards/${slug}/jobs/${id}`, { headers });
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((j) => j.id);

describe('GET /api/boards/{slug}/jobs and /jobs/{id}', () => {
  let eng: string;
  let sales: string;
  beforeAll(async () => {
    eng = await newReq({ title: 'Platform Engineer', department: 'Engineering', location: 'Zürich' });
    await publish(eng, {
      remote: 'hybrid',
      remote_countries: ['CH', 'DE'],
      salary: { min: 120000, max: 150000, currency: 'CHF', period: 'year' },
      questions: [{ id: 'eu_work', type: 'yes_no', label: 'Authorised to work in Switzerland?', required: true }],
      rules: [{ question_id: 'eu_work', op: 'eq', value: false }],
    });
    sales = await newReq({ title: 'Account Executive', department: 'Sales', location: 'London' });
    await publish(sales, { remote: 'no', employment_type: 'contract' });
    const draft = await newReq({ title: 'Not yet', status: 'draft' });
    await publish(draft);
    const unpublished = await newReq({ title: 'Hidden' });
    await publish(unpublished, { published: false });
  });

  it('lists the published jobs of open requisitions, newest first, without a token, with CORS and an ETag', async () => {
    const res = await until('the two jobs on the board', async () => {
      const r = await board(tenant.slug);
      return r.body.data.length === 2 && r;
    });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([sales, eng]);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=15');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data[1]).toEqual({
      id: eng,
      title: 'Platform Engineer',
      department: 'Engineering',
      location: 'Zürich',
      remote: 'hybrid',
      remote_countries: ['CH', 'DE'],
      employment_type: null,
      salary: { min: 120000, max: 150000, currency: 'CHF', period: 'year' },
      published_at: expect.any(String),
      updated_at: expect.any(String),
      url: `/careers/${tenant.slug}/jobs/${eng}`,
    });
  });

  it('answers one job with its description and questions, never its knockout rules or screening choices', async () => {
    const res = await job(tenant.slug, eng);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: eng,
      description: 'We build **things**.',
      questions: [{ id: 'eu_work', type: 'yes_no', label: 'Authorised to work in Switzerland?', required: true }],
    });
    expect(res.text).not.toContain('rules');
    expect(res.text).not.toContain('on_fail');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 304 without a body to an If-None-Match naming the current ETag, and 200 once it changed', async () => {
    const first = await job(tenant.slug, sales);
    const etag = first.headers.get('etag')!;
    const again = await job(tenant.slug, sales, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    await publish(sales, { remote: 'no', employment_type: 'contract', description: 'New words.' });
    const changed = await job(tenant.slug, sales, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.data.description).toBe('New words.');
    const list = await board(tenant.slug);
    expect((await board(tenant.slug, '', { 'if-none-match': list.headers.get('etag')! })).status).toBe(304);
  });

  it.each([
    ['?q=platform', () => [eng]],
    ['?q=ENGINEER%20zurich', () => [eng]],
    ['?q=nobody', () => []],
    ['?location=zurich', () => [eng]],
    ['?location=lon', () => [sales]],
    ['?department=sales', () => [sales]],
    ['?department=sal', () => []],
    ['?remote=hybrid', () => [eng]],
    ['?remote=no&department=Sales', () => [sales]],
  ])('filters %s', async (query, expected) => {
    expect(ids(await board(tenant.slug, query))).toEqual(expected());
  });

  it('refuses a bad filter with 400 naming the field', async () => {
    expect((await board(tenant.slug, '?remote=sometimes')).body).toMatchObject({ code: 'invalid_field', field: 'remote' });
    expect((await board(tenant.slug, '?limit=0')).body).toMatchObject({ field: 'limit' });
    expect((await board(tenant.slug, '?cursor=abc')).body).toMatchObject({ field: 'cursor' });
  });
});

describe('paging', () => {
  it('walks every job once with next_cursor, filters applied across pages', async () => {
    const t = await stack.tenant();
    const tok = await t.token(['*']);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = await newReq({ title: `Role ${i}`, department: i % 2 ? 'Odd' : 'Even' }, tok);
      await publish(id, {}, tok);
      made.unshift(id);
    }
    await until('the seven jobs on the board', async () => (await board(t.slug)).body.data.length === 7);
    const walk = async (query: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: Awaited<ReturnType<typeof board>> = await board(t.slug, `?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...ids(res));
        cursor = res.body.next_cursor;
      } while (cursor);
      return seen;
    };
    expect(await walk('')).toEqual(made);
    // made is newest first: made[k] is Role 6 - k, so the odd roles are the odd k.
    expect(await walk('&department=odd')).toEqual(made.filter((_, k) => k % 2 === 1));
  });
});

describe('isolation', () => {
  it("another workspace's slug never shows yours, and an unknown slug answers as a workspace with nothing posted", async () => {
    const mine = await newReq({ title: 'Mine only' });
    await publish(mine);
    const other = await stack.tenant();
    const empty = await board(other.slug);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: [], next_cursor: null });
    const unknown = await board('no-such-workspace');
    expect([unknown.status, unknown.body, unknown.headers.get('etag')]).toEqual([200, empty.body, empty.headers.get('etag')]);
    const viaOther = await job(other.slug, mine);
    const viaUnknown = await job('no-such-workspace', mine);
    expect([viaOther.status, viaOther.body]).toEqual([404, { error: 'job not found', code: 'not_found' }]);
    expect([viaUnknown.status, viaUnknown.body]).toEqual([viaOther.status, viaOther.body]);
    expect((await job(tenant.slug, mine)).status).toBe(200);
  });

  it('an unpublished posting, or one whose requisition is on hold or closed, answers 404 and leaves the list; opening lists it again', async () => {
    const id = await newReq({ title: 'Comes and goes' });
    await publish(id);
    const listed = async () => ids(await board(tenant.slug)).includes(id);
    await until('the job on the board', listed);
    const check = async (expected: 200 | 404) => {
      expect((await job(tenant.slug, id)).status).toBe(expected);
      await until(`the board ${expected === 200 ? 'listing' : 'dropping'} the job`, async () => (await listed()) === (expected === 200));
    };
    await setStatus(id, 'on_hold', 'budget');
    await check(404);
    await setStatus(id, 'open');
    await check(200);
    await publish(id, { published: false });
    await check(404);
    await publish(id);
    await check(200);
    await setStatus(id, 'closed', 'hired elsewhere');
    await check(404);
    // A 404 the browser code of another site can read.
    expect((await job(tenant.slug, id)).headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('matchesBoardFilters', () => {
  const j = { title: 'Backend Engineer', department: 'Platform', location: 'São Paulo, Brazil', remote: 'remote' as const };
  it.each([
    [{}, true],
    [{ q: 'backend' }, true],
    [{ q: 'backend sao' }, true],
    [{ q: 'frontend' }, false],
    [{ location: 'paulo' }, true],
    [{ department: 'platform' }, true],
    [{ department: 'plat' }, false],
    [{ remote: 'hybrid' as const }, false],
  ])('%o -> %s', (q, expected) => {
    expect(matchesBoardFilters(j, q)).toBe(expected);
  });
});
