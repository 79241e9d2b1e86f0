/**
 * The import's duplicate rule is the create's: a row whose email is a person's becomes that
 * person's candidate (another requisition: a new candidate, not a skip), the same person on the
 * same requisition is a skipped row `duplicate_candidate`, a new email's row gets its person in the
 * import's own write, and a race of import rows with API creates of the same emails leaves one
 * person per email and one candidate per requisition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAll, tableName } from '../../lib/store/client';
import { emailDigest } from '../../lib/store/people';
import { createRequisition } from '../../lib/store/requisitions';
import { keys } from '../../lib/store/table';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';
import { importFinished } from '../helpers/import-job';

let stack: Stack;
let t: TestTenant;
let token: string;
let req1: string;
let req2: string;

beforeAll(async () => {
  stack = await startStack({ imports: true });
  t = await stack.tenant();
  token = await t.token(['*']);
  req1 = (await createRequisition(t.id, { title: 'Backend Engineer', status: 'open' })).id;
  req2 = (await createRequisition(t.id, { title: 'Data Engineer', status: 'open' })).id;
});
afterAll(() => stack.close());

const post = (text: string, query = '') =>
  stack.call('POST', `/api/v1/candidates/imports${query}`, { token, rawBody: text, headers: { 'Content-Type': 'text/csv' } });

const finished = (id: string) => importFinished(stack, id, token);

async function errorsOf(id: string) {
  const res = await stack.call('GET', `/api/v1/candidates/imports/${id}/errors?limit=500`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { row: number; outcome: string; field: string | null; code: string; error: string }[];
}

const create = (body: Record<string, unknown>) => stack.call('POST', '/api/v1/candidates', { token, body });
const byEmail = async (email: string) => {
  const res = await stack.call('GET', `/api/v1/candidates?q=${encodeURIComponent(email)}&limit=100`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { id: string; email: string; req_id: string | null; person_id: string | null }[]).filter(
    (c) => c.email?.toLowerCase() === email.toLowerCase(),
  );
};
const claimOf = async (email: string) =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.emailClaim(t.id, emailDigest(email)).PK },
    ConsistentRead: true,
  });

let n = 0;
const unique = (tag: string) => `${tag}.${++n}.${Date.now()}@import-people.example`;

describe('the import matches people as the create does', () => {
  it("joins a known person on another requisition, skips them on theirs, and gives new rows a person in the import's own write", async () => {
    const known = unique('known');
    const made = await create({ name: 'Kim Known', email: known, req_id: req1 });
    expect(made.status, made.text).toBe(201);
    const [fresh, twice] = [unique('fresh'), unique('twice')];
    const file = [
      'name,email,req_id',
      `Kim K,${known.toUpperCase()},${req2}`, // 2: Kim's next candidate
      `Kim K,${known},${req1}`, // 3: Kim is already there
      `Fay Fresh,${fresh},`, // 4: a new person
      `Tia Twice,${twice},${req1}`, // 5: a new person
      `Tia Twice,${twice},${req2}`, // 6: the same person, on another requisition
      `Tia Twice,${twice},${req1}`, // 7: the same person again on row 5's requisition
    ].join('\n');
    const dry = await post(file, '?dry_run=true');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data.counts).toEqual({ total: 6, created: 4, skipped: 2, failed: 0 });

    const res = await post(file);
    expect(res.status, res.text).toBe(202);
    const job = await finished(res.body.data.id);
    expect(job.counts).toEqual({ total: 6, created: 4, skipped: 2, failed: 0 });
    expect((await errorsOf(job.id)).map((e) => [e.row, e.outcome, e.field, e.code])).toEqual([
      [3, 'skipped', 'req_id', 'duplicate_candidate'],
      [7, 'skipped', 'req_id', 'duplicate_candidate'],
    ]);
    expect((await errorsOf(job.id))[0]!.error).toContain(made.body.data.id);

    const kim = await byEmail(known);
    expect(kim.map((c) => c.req_id).sort()).toEqual([req1, req2].sort());
    expect(new Set(kim.map((c) => c.person_id))).toEqual(new Set([made.body.data.person_id]));
    const person = await stack.call('GET', `/api/v1/people/${made.body.data.person_id}`, { token });
    expect(person.body.data.candidates).toHaveLength(2);

    const tia = await byEmail(twice);
    expect(tia.map((c) => c.req_id).sort()).toEqual([req1, req2].sort());
    expect(new Set(tia.map((c) => c.person_id)).size).toBe(1);
    const [fay] = await byEmail(fresh);
    expect(fay!.person_id).toMatch(/^[0-9a-f-]{36}$/);
    // Each email's claim names the person its rows got: no backfill needed.
    for (const [email, pid] of [
      [fresh, fay!.person_id],
      [twice, tia[0]!.person_id],
      [known, made.body.data.person_id],
    ]) {
      expect((await claimOf(email!)).map((c) => c.person_id)).toEqual([pid]);
    }
    // A create of an imported email joins the imported person.
    const joined = await create({ name: 'Fay', email: fresh, req_id: req1 });
    expect(joined.status, joined.text).toBe(201);
    expect(joined.body.data.person_id).toBe(fay!.person_id);
  }, 120_000);

  it('a race of import rows and API creates of the same emails leaves one person per email and one candidate per requisition', async () => {
    const emails = Array.from({ length: 24 }, (_, i) => unique(`race${i}`));
    const file = ['name,email,req_id', ...emails.map((e) => `Rae Race,${e},${req1}`)].join('\n');
    const res = await post(file);
    expect(res.status, res.text).toBe(202);
    // While the import runs: each email created on the import's requisition or on another, a few
    // at a time (as many as the local runtime serves at once).
    const creates: Awaited<ReturnType<typeof create>>[] = [];
    for (let i = 0; i < emails.length; i += 4) {
      const wave = emails.slice(i, i + 4).map((email, k) => create({ name: 'Rae Race', email, req_id: (i + k) % 2 ? req1 : req2 }));
      creates.push(...(await Promise.all(wave)));
    }
    for (const c of creates) {
      if (c.status !== 201) expect(c.body, c.text).toMatchObject({ code: 'duplicate_candidate' });
    }
    const job = await finished(res.body.data.id);
    expect(job.counts.failed).toBe(0);
    expect(job.counts.created + job.counts.skipped).toBe(emails.length);
    for (const e of await errorsOf(job.id)) expect([e.outcome, e.code]).toEqual(['skipped', 'duplicate_candidate']);
    for (const [i, email] of emails.entries()) {
      const cs = await byEmail(email);
      expect(new Set(cs.map((c) => c.person_id)).size, email).toBe(1);
      expect(
        cs.filter((c) => c.req_id === req1),
        email,
      ).toHaveLength(1);
      // The creates on the other requisition were never refused.
      if (i % 2 === 0)
        expect(
          cs.filter((c) => c.req_id === req2),
          email,
        ).toHaveLength(1);
      expect((await claimOf(email)).map((c) => c.person_id)).toEqual([cs[0]!.person_id]);
    }
  }, 180_000);
});
