/**
 * Bulk import through the local gateway and the local import worker (dev/imports.ts): the file's
 * edge cases, every kind of refused row with its row number, no duplicates on a re-post, the dry
 * run writing nothing, counters, idempotency and isolation.
 */
import { settleAudit } from '../helpers/audit';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanTable } from '../helpers/scan';
import { startStack, type Stack, PASSWORD } from '../helpers/stack';
import { importFinished } from '../helpers/import-job';
import { createRequisition } from '../../lib/store/requisitions';

let stack: Stack;
let token: string;
let otherToken: string;
let openReq: string;
let closedReq: string;
let tenant: Awaited<ReturnType<Stack['tenant']>>;

beforeAll(async () => {
  stack = await startStack({ imports: true });
  const t = await stack.tenant();
  tenant = t;
  token = await t.token(['*']);
  otherToken = await (await stack.tenant()).token(['*']);
  openReq = (await createRequisition(t.id, { title: 'Data Engineer', status: 'open' })).id;
  const closed = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Old Role' } });
  closedReq = closed.body.data.id;
  const res = await stack.call('POST', `/api/v1/requisitions/${closedReq}/status`, { token, body: { status: 'closed', reason: 'Done' } });
  expect(res.status).toBe(200);
});
afterAll(() => stack.close());

const post = (text: string, opts: { type?: string; query?: string; as?: string; headers?: Record<string, string> } = {}) =>
  stack.call('POST', `/api/v1/candidates/imports${opts.query ?? ''}`, {
    token: opts.as ?? token,
    rawBody: text,
    headers: { 'Content-Type': opts.type ?? 'text/csv', ...opts.headers },
  });

const finished = (id: string, as = token) => importFinished(stack, id, as, 600);

async function allErrors(id: string, limit = 100) {
  const out: { row: number; outcome: string; field: string | null; code: string; error: string }[] = [];
  let cursor: string | null = null;
  do {
    const q: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await stack.call('GET', `/api/v1/candidates/imports/${id}/errors${q}`, { token });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

async function candidatesByEmail() {
  const res = await stack.call('GET', '/api/v1/candidates?limit=200', { token });
  return { count: res.body.count as number, byEmail: new Map((res.body.data as { email: string }[]).map((c) => [c.email, c])) };
}

const scanKeys = async () => (await scanTable({ ProjectionExpression: 'PK, SK' })).map((i) => `${i.PK} ${i.SK}`).sort();

describe('CSV files', () => {
  it('numbers rows as a spreadsheet does: a blank line and a line of only "" keep their row numbers', async () => {
    const csv = 'name,email\r\n\r\n""\r\nGood Row,good@rows.example\r\nBad Row,not-an-email\r\n\r\n"Also\nBad",\r\n';
    const res = await post(csv, { query: '?dry_run=true' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.counts).toEqual({ total: 3, created: 1, skipped: 0, failed: 2 });
    expect(res.body.data.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [5, 'email'],
      [7, 'name'],
    ]);
  });

  it('reads quoted commas, quotes and newlines, a BOM, CRLF, accents and emoji, trailing blank lines, any column order', async () => {
    const csv =
      '\uFEFFEmail,stage, Name ,phone\r\n' +
      'zoe@import.example,ai_screened,"Zoë ""Z"" Ångström, PhD",+33 1 23 45 67 89\r\n' +
      'li@import.example,,李小龍 😀,\r\n' +
      // One row over two lines: a name cannot hold a line break (as on POST /candidates), and the
      // rows after it keep their numbers.
      'two@import.example,,"Two\r\nLines",\r\n' +
      ',,,\r\n' +
      'plain@import.example,applied,Plain Row,\r\n' +
      '\r\n\r\n';
    const res = await post(csv);
    expect(res.status, res.text).toBe(202);
    expect(res.body.data).toMatchObject({ dry_run: false, status: 'queued', format: 'csv', counts: { total: 4, created: 0 } });
    const job = await finished(res.body.data.id);
    expect(job).toMatchObject({ status: 'completed', counts: { total: 4, created: 3, skipped: 0, failed: 1 }, processed: 4 });
    const { byEmail } = await candidatesByEmail();
    expect(byEmail.get('zoe@import.example')).toMatchObject({
      name: 'Zoë "Z" Ångström, PhD',
      stage: 'ai_screened',
      phone: '+33 1 23 45 67 89',
    });
    expect(byEmail.get('li@import.example')).toMatchObject({ name: '李小龍 😀', stage: 'applied', phone: null });
    expect(byEmail.get('plain@import.example')).toMatchObject({ name: 'Plain Row' });
    expect(byEmail.has('two@import.example')).toBe(false);
    expect(await allErrors(job.id)).toEqual([
      { row: 4, outcome: 'failed', field: 'name', code: 'invalid_field', error: 'name must not contain control characters' },
    ]);
  });

  it('refuses every kind of invalid row with its row number, field, code and sentence, and creates the rest', async () => {
    await post('name,email\nAlready There,taken@import.example\n').then((r) => finished(r.body.data.id));
    const rows = [
      'name,email,phone,resume_url,req_id,stage', // row 1
      'Good One,good1@import.example,,,,', // 2
      ',noname@import.example,,,,', // 3
      'Bad Email,not-an-email,,,,', // 4
      'Bad Phone,,call me,,,', // 5
      'Bad Url,,,javascript:alert(1),,', // 6
      'Bad Req,,,,abc,', // 7
      `Unknown Req,,,,${randomUUID()},`, // 8
      `Closed Req,,,,${closedReq},`, // 9
      'Bad Stage,,,,,hired', // 10
      'Too Many,,,,,,extra', // 11
      'Dup In File,GOOD1@import.example,,,,', // 12
      'Dup In Workspace,Taken@Import.example,,,,', // 13
      `On Req,onreq@import.example,,,${openReq},interviewed`, // 14
    ].join('\n');
    const res = await post(rows);
    expect(res.status, res.text).toBe(202);
    const job = await finished(res.body.data.id);
    expect(job.counts).toEqual({ total: 13, created: 2, skipped: 2, failed: 9 });
    const errors = await allErrors(job.id, 4);
    expect(errors.map((e) => [e.row, e.outcome, e.field, e.code])).toEqual([
      [3, 'failed', 'name', 'invalid_field'],
      [4, 'failed', 'email', 'invalid_field'],
      [5, 'failed', 'phone', 'invalid_field'],
      [6, 'failed', 'resume_url', 'invalid_field'],
      [7, 'failed', 'req_id', 'invalid_field'],
      [8, 'failed', 'req_id', 'invalid_field'],
      [9, 'failed', 'req_id', 'requisition_not_open'],
      [10, 'failed', 'stage', 'invalid_field'],
      [11, 'failed', null, 'invalid_row'],
      [12, 'skipped', 'email', 'duplicate_candidate'],
      [13, 'skipped', 'email', 'duplicate_candidate'],
    ]);
    // The sentences POST /candidates answers for the same input.
    expect(errors.find((e) => e.row === 3)!.error).toBe('name is required');
    expect(errors.find((e) => e.row === 7)!.error).toBe('req_id must be a UUID');
    expect(errors.find((e) => e.row === 8)!.error).toBe('req_id names no requisition in this workspace');
    expect(errors.find((e) => e.row === 9)!.error).toBe('the requisition is closed; candidates can only be added to an open requisition');
    expect(errors.find((e) => e.row === 12)!.error).toBe('this person (the same email) is in row 2 of this file without a requisition');
    expect(errors.find((e) => e.row === 13)!.error).toMatch(/^this person is already a candidate without a requisition \([0-9a-f-]{36}\)/);
    const list = await stack.call('GET', `/api/v1/candidates?req_id=${openReq}`, { token });
    expect([list.body.count, list.body.data.map((c: { name: string }) => c.name)]).toEqual([1, ['On Req']]);
  });

  it('refuses a file with an unknown or missing column by name, before writing anything', async () => {
    const before = await scanKeys();
    const unknown = await post('name,email,nickname,Salary\nA,a@x.example,b,1\n');
    expect([unknown.status, unknown.body]).toEqual([
      400,
      {
        error: 'unknown columns "nickname", "Salary"; the columns are name, email, phone, resume_url, req_id, stage',
        code: 'invalid_field',
        field: 'nickname',
      },
    ]);
    const noName = await post('email\na@x.example\n');
    expect([noName.status, noName.body.field]).toEqual([400, 'name']);
    const empty = await post('name\n\n');
    expect([empty.status, empty.body.error]).toEqual([400, 'the file has no rows to import']);
    const json = await post('{"name":"A"}', { type: 'application/json' });
    expect([json.status, json.body.code]).toEqual([415, 'unsupported_media_type']);
    expect(await scanKeys()).toEqual(before);
  });
});

describe('no duplicates', () => {
  const file = ['name,email', ...Array.from({ length: 30 }, (_, i) => `Person ${i},person${i}@again.example`)].join('\n');

  it('the same file posted again gets the same job; the same people in another file are skipped', async () => {
    const first = await post(file);
    expect(first.status).toBe(202);
    const done = await finished(first.body.data.id);
    expect(done.counts).toEqual({ total: 30, created: 30, skipped: 0, failed: 0 });
    const before = await candidatesByEmail();
    const again = await post(file);
    expect([again.status, again.body.data.id]).toEqual([200, first.body.data.id]);
    const edited = await post(`${file}\n`.replace('name,email', 'email,name').replace(/^(Person \d+),(.*)$/gm, '$2,$1'));
    expect(edited.status).toBe(202);
    const second = await finished(edited.body.data.id);
    expect(second.counts).toEqual({ total: 30, created: 0, skipped: 30, failed: 0 });
    expect((await candidatesByEmail()).count).toBe(before.count);
  });

  it('honours Idempotency-Key: the same key and file answer the first job again', async () => {
    const key = randomUUID();
    const text = 'name\nKeyed Person\n';
    const a = await post(text, { headers: { 'Idempotency-Key': key } });
    const b = await post(text, { headers: { 'Idempotency-Key': key } });
    expect([a.status, b.status, b.headers.get('Idempotent-Replayed'), b.body.data.id]).toEqual([202, 202, 'true', a.body.data.id]);
    await finished(a.body.data.id);
  });
});

describe('dry run', () => {
  it('judges every row as the import would and writes nothing', async () => {
    const before = await scanKeys();
    const res = await post(
      `name,email,req_id\nNew Person,new-dry@import.example,\nTaken,taken@import.example,\nClosed,,${closedReq}\n,x@y.example,\n`,
      {
        query: '?dry_run=true',
      },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({
      dry_run: true,
      format: 'csv',
      counts: { total: 4, created: 1, skipped: 1, failed: 2 },
      errors: [
        {
          row: 3,
          outcome: 'skipped',
          field: 'email',
          code: 'duplicate_candidate',
          error: expect.stringMatching(/^this person is already a candidate without a requisition \([0-9a-f-]{36}\)/),
        },
        {
          row: 4,
          outcome: 'failed',
          field: 'req_id',
          code: 'requisition_not_open',
          error: 'the requisition is closed; candidates can only be added to an open requisition',
        },
        { row: 5, outcome: 'failed', field: 'name', code: 'invalid_field', error: 'name is required' },
      ],
      errors_truncated: false,
    });
    expect(await scanKeys()).toEqual(before);
  });
});

describe('NDJSON files', () => {
  it('imports one object per line and refuses unknown keys by name', async () => {
    const ok = await post('{"name":"Nd One","email":"nd1@import.example"}\n\n{"name":"Nd Two","stage":"ai_screened"}\n[1]\n', {
      type: 'application/x-ndjson',
    });
    expect(ok.status, ok.text).toBe(202);
    const job = await finished(ok.body.data.id);
    expect(job.counts).toEqual({ total: 3, created: 2, skipped: 0, failed: 1 });
    expect((await allErrors(job.id)).map((e) => [e.row, e.code, e.error])).toEqual([[4, 'invalid_row', 'line is not a JSON object']]);
    const bad = await post('{"name":"A","nick":"B"}\n', { type: 'application/x-ndjson' });
    expect([bad.status, bad.body.field]).toEqual([400, 'nick']);
  });
});

describe('audit log', () => {
  it('records the import, and each created row as a creation by the token that posted the file', async () => {
    const cookie = await stack.login((await tenant.user('admin')).email, PASSWORD);
    const audit = async (q: string) => {
      await settleAudit();
      const res = await stack.call('GET', `/api/audit?${q}&limit=100`, { headers: { Cookie: cookie } });
      expect(res.status, res.text).toBe(200);
      return res.body.data as {
        action: string;
        actor: { type: string };
        target: { id: string };
        changes: { field: string; after?: unknown }[];
      }[];
    };
    const posted = await post(
      'name,email,phone\nAudit One,audit1@import.example,+1 555 0100\nAudit Two,audit2@import.example,\nAudit Bad,not-an-email,\n',
    );
    expect(posted.status, posted.text).toBe(202);
    const job = await finished(posted.body.data.id);
    expect(job.counts).toMatchObject({ created: 2, failed: 1 });
    const imported = await audit(`action=import.created&target=${job.id}`);
    expect(imported).toHaveLength(1);
    expect(imported[0]!.actor.type).toBe('token');
    expect(imported[0]!.changes).toEqual([
      { field: 'format', after: 'csv' },
      { field: 'rows', after: 3 },
    ]);
    const rows = (await audit('action=candidate.created')).filter((r) =>
      r.changes.some((c) => c.field === 'import_id' && c.after === job.id),
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.actor.type).toBe('token');
      // Personal fields by name only: no value of the file's cells. Whole values: a bare `555`
      // also matches random ids and times.
      expect(JSON.stringify(r)).not.toMatch(/Audit (One|Two)|audit[12]@import\.example|\+1 555 0100/);
    }
  });
});

describe('isolation', () => {
  it('another workspace cannot read a job or its errors', async () => {
    const res = await post('name,email\nMine,mine@import.example\n,bad\n');
    const id = res.body.data.id;
    await finished(id);
    const job = await stack.call('GET', `/api/v1/candidates/imports/${id}`, { token: otherToken });
    const errors = await stack.call('GET', `/api/v1/candidates/imports/${id}/errors`, { token: otherToken });
    expect([job.status, job.body.code, errors.status, errors.body.code]).toEqual([404, 'not_found', 404, 'not_found']);
    const cursorFromMine = await stack.call('GET', `/api/v1/candidates/imports/${id}/errors?limit=1`, { token });
    expect(cursorFromMine.body.next_cursor).toBeNull();
  });
});
