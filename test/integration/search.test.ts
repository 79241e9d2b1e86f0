/**
 * GET /api/v1/candidates?q=…: prefix search over name words and the email, case and accents
 * ignored, on the search items kept in the candidate's own transactions (lib/store/search.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { createRequisition } from '../../lib/store/requisitions';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/store/client';
import { candidateItem } from '../../lib/store/candidates';
import { reindexTenant } from '../../lib/store/search';
import { newId } from '../../lib/ids';

let stack: Stack;
let token: string;
let tenantId: string;
let reqId: string;
const ids: Record<string, string> = {};

const create = async (body: Record<string, unknown>) => {
  const res = await stack.call('POST', '/api/v1/candidates', { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const search = (query: string, as = token) => stack.call('GET', `/api/v1/candidates?${query}`, { token: as });
const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((c) => c.name).sort();

beforeAll(async () => {
  stack = await startStack();
  const t = await stack.tenant();
  tenantId = t.id;
  token = await t.token(['*']);
  reqId = (await createRequisition(t.id, { title: 'Search Engineer', status: 'open' })).id;
  ids.ada = await create({ name: 'Ada Lovelace', email: 'ada@example.com' });
  ids.jose = await create({ name: 'José Álvarez', email: 'jose@example.org', req_id: reqId });
  ids.jean = await create({ name: 'Jean-Luc Picard', stage: 'interviewed', req_id: reqId });
  ids.anna = await create({ name: 'Anna Anderson', email: 'anna@example.net' });
}, 120_000);
afterAll(() => stack.close());

describe('q', () => {
  it.each([
    ['ada', ['Ada Lovelace']],
    ['LOVE', ['Ada Lovelace']],
    ['ada@exa', ['Ada Lovelace']],
    ['jose', ['José Álvarez']],
    ['ÁLV', ['José Álvarez']],
    ['luc', ['Jean-Luc Picard']],
    ['jean-l', ['Jean-Luc Picard']],
    ['ada love', ['Ada Lovelace']],
    ['ada picard', []],
    ['example', []],
  ])('q=%s finds %j', async (q, expected) => {
    const res = await search(`q=${encodeURIComponent(q)}`);
    expect(res.status, res.text).toBe(200);
    expect(names(res)).toEqual(expected);
    expect(res.body.count).toBe(expected.length);
    expect(res.body.next_cursor).toBeNull();
  });

  it('lists a candidate with several matching words once', async () => {
    const res = await search('q=an');
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([ids.anna]);
  });

  it('answers the list shape, stage_entered_at included', async () => {
    const res = await search('q=ada');
    expect(res.body.data[0]).toMatchObject({ id: ids.ada, name: 'Ada Lovelace', email: 'ada@example.com', stage: 'applied', req_id: null });
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      [
        'created_at',
        'email',
        'id',
        'interview_progress',
        'name',
        'person_id',
        'phone',
        'rejection',
        'req_id',
        'req_title',
        'resume_url',
        'source',
        'stage',
        'stage_entered_at',
        'updated_at',
      ].sort(),
    );
  });

  it('combines with stage and req_id', async () => {
    expect(names(await search('q=j&stage=interviewed'))).toEqual(['Jean-Luc Picard']);
    expect(names(await search(`q=j&req_id=${reqId}`))).toEqual(['Jean-Luc Picard', 'José Álvarez']);
    expect(names(await search(`q=j&req_id=${reqId}&stage=applied`))).toEqual(['José Álvarez']);
    expect(names(await search('q=ada&stage=interviewed'))).toEqual([]);
  });

  it('a stage move updates the copies: the new stage finds it, the old one no longer', async () => {
    const id = await create({ name: 'Moved Mover' });
    const moved = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'offer_sent' } });
    expect(moved.status).toBe(200);
    const found = await search('q=mover&stage=offer_sent');
    expect(found.body.data.map((c: { id: string; stage: string }) => [c.id, c.stage])).toEqual([[id, 'offer_sent']]);
    expect(names(await search('q=mover&stage=applied'))).toEqual([]);
  });

  it('a rename drops the old tokens and adds the new ones; an email change too', async () => {
    const id = await create({ name: 'Oldname Person', email: 'old@example.com' });
    const res = await stack.call('PATCH', `/api/v1/candidates/${id}`, {
      token,
      body: { name: 'Newname Person', email: 'new@example.com' },
    });
    expect(res.status).toBe(200);
    expect(names(await search('q=oldname'))).toEqual([]);
    expect(names(await search('q=old@'))).toEqual([]);
    expect(names(await search('q=newname'))).toEqual(['Newname Person']);
    expect(names(await search('q=new@exa'))).toEqual(['Newname Person']);
    // The copies under a kept token changed too.
    expect((await search('q=person')).body.data[0]).toMatchObject({ id, name: 'Newname Person', email: 'new@example.com' });
  });

  it('a requisition change updates the copies', async () => {
    const id = await create({ name: 'Reqless Rita' });
    expect((await stack.call('PATCH', `/api/v1/candidates/${id}`, { token, body: { req_id: reqId } })).status).toBe(200);
    expect(names(await search(`q=rita&req_id=${reqId}`))).toEqual(['Reqless Rita']);
  });

  it('pages with a cursor: every match once, in a stable order', async () => {
    const made = new Set<string>();
    for (let i = 0; i < 23; i++) made.add(await create({ name: `Pager${String(i).padStart(2, '0')} Pagerson` }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search(['q=pager', 'limit=5', cursor && `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join('&'));
      expect(res.status, res.text).toBe(200);
      expect(res.body.count).toBe(res.body.data.length);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(made);
    // Matched word then id: each candidate is listed at its first token, `pager00`…`pager22`.
    const again = await search('q=pager&limit=100');
    expect(again.body.data.map((c: { id: string }) => c.id)).toEqual(seen);
    expect(again.body.data[0].name).toBe('Pager00 Pagerson');
  });

  it('a cursor is bound to its search', async () => {
    for (let i = 0; i < 3; i++) await create({ name: `Bound${i}` });
    const first = await search('q=bound&limit=1');
    expect(first.body.next_cursor).toBeTruthy();
    const other = await search(`q=ada&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(other.status).toBe(400);
    expect(other.body.field).toBe('cursor');
  });

  it('finds nothing of another workspace', async () => {
    const other = await stack.tenant();
    const otherToken = await other.token(['*']);
    expect(tenantId).not.toBe(other.id);
    for (const q of ['ada', 'jose', 'an', 'example']) {
      const res = await search(`q=${q}`, otherToken);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  it.each([
    ['q=', 'q must not be empty'],
    ['q=%20%20', 'q must not be empty'],
    [`q=${'a'.repeat(101)}`, 'q must be at most 100 characters'],
    ['q=--', 'q must contain a letter or a digit'],
  ])('answers 400 on q for %s', async (query, message) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, field: 'q' });
  });

  it('refuses offset and updated_after with a search', async () => {
    const off = await search('q=ada&offset=5');
    expect(off.status).toBe(400);
    expect(off.body.error).toMatch(/q pages with cursor, not offset/);
    const upd = await search('q=ada&updated_after=2026-01-01T00:00:00Z');
    expect(upd.status).toBe(400);
    expect(upd.body).toMatchObject({ field: 'q' });
    expect(upd.body.error).toMatch(/updated_after/);
  });

  it('the OpenAPI document declares q on the candidates list', async () => {
    const res = await stack.call('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const params = res.body.paths['/api/v1/candidates'].get.parameters as { name: string; in: string; schema: Record<string, unknown> }[];
    const q = params.find((p) => p.name === 'q');
    expect(q).toMatchObject({ in: 'query', schema: { type: 'string', maxLength: 100 } });
  });
});

describe('the board index (req_id and stage)', () => {
  it('lists a column newest stage entry first, follows moves and requisition changes', async () => {
    const board = (await createRequisition(tenantId, { title: 'Board', status: 'open' })).id;
    const a = await create({ name: 'Col A', req_id: board });
    const b = await create({ name: 'Col B', req_id: board });
    const c = await create({ name: 'Col C' });
    const column = async (stage: string) =>
      (await search(`req_id=${board}&stage=${stage}`)).body.data.map((x: { id: string }) => x.id) as string[];
    expect(await column('applied')).toEqual([b, a]);
    await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: a, stage: 'interviewed' } });
    expect(await column('applied')).toEqual([b]);
    expect(await column('interviewed')).toEqual([a]);
    await stack.call('PATCH', `/api/v1/candidates/${c}`, { token, body: { req_id: board } });
    // C entered applied when it was created, after B: newest stage entry first.
    expect(await column('applied')).toEqual([c, b]);
    await stack.call('PATCH', `/api/v1/candidates/${b}`, { token, body: { req_id: null } });
    expect(await column('applied')).toEqual([c]);
    const page = await search(`req_id=${board}&stage=applied`);
    expect(page.body.count).toBe(1);
  });

  it('pages a column with a cursor', async () => {
    const board = (await createRequisition(tenantId, { title: 'Paged board', status: 'open' })).id;
    const made = new Set<string>();
    for (let i = 0; i < 7; i++) made.add(await create({ name: `Paged ${i}`, req_id: board, stage: 'offer_sent' }));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await search(
        [`req_id=${board}`, 'stage=offer_sent', 'limit=3', cursor && `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join('&'),
      );
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.map((x: { id: string }) => x.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(made);
  });
});

describe('search reindex (npm run admin -- search reindex <slug>)', () => {
  it('backfills search items and GSI5 keys of older candidates, and a second run changes nothing', async () => {
    const t = await stack.tenant();
    const otherToken = await t.token(['*']);
    const board = (await createRequisition(t.id, { title: 'Old board', status: 'open' })).id;
    const at = new Date(Date.now() - 86_400_000).toISOString();
    const old = Array.from({ length: 5 }, (_, i) => {
      // As written before the search index and GSI5 existed.
      const {
        GSI5PK: _p,
        GSI5SK: _s,
        ...item
      } = candidateItem(t.id, {
        id: newId(),
        name: `Legacy Person${i}`,
        email: `legacy${i}@example.com`,
        stage: 'interviewed',
        req_id: board,
        req_title: 'Old board',
        created_at: at,
        updated_at: at,
        stage_entered_at: at,
      });
      return item;
    });
    for (const Item of old) await ddb.send(new PutCommand({ TableName: tableName(), Item }));
    const find = async (query: string) => (await search(query, otherToken)).body.data.length;
    expect(await find('q=legacy')).toBe(0);
    expect(await find(`req_id=${board}&stage=interviewed`)).toBe(0);
    const pages: number[] = [];
    const first = await reindexTenant(t.id, (p) => pages.push(p.candidates));
    // Three tokens each: legacy, person<i>, the email.
    expect(first).toEqual({ candidates: 5, written: 5 * 3 });
    expect(pages.at(-1)).toBe(5);
    expect(await find('q=legacy')).toBe(5);
    expect(await find('q=legacy3@')).toBe(1);
    expect(await find(`req_id=${board}&stage=interviewed`)).toBe(5);
    expect(await reindexTenant(t.id)).toEqual(first);
    expect(await find('q=legacy')).toBe(5);
  });
});
