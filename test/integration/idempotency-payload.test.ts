/**
 * What "the same request" means for Idempotency-Key (docs/api.md, "Idempotency-Key"; lib/idempotency.ts):
 * the JSON body as parsed, not its bytes. The handlers run under middy's http-json-body-parser,
 * so lib/idempotency.ts hands Powertools the parsed object, and Powertools sorts keys before it
 * hashes (deepSort). A retry whose body differs only in key order or whitespace between tokens
 * replays; any change of a value, whitespace inside a string included, is a 422. Bodies are sent
 * as raw strings so that the bytes really differ.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let t: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  t = await stack.tenant();
  token = await t.token(['*']);
});
afterAll(async () => {
  await stack.close();
});

const send = (method: string, path: string, rawBody: string, key: string) =>
  stack.call(method, path, { token, rawBody, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key } });

async function newCandidate(name: string): Promise<string> {
  const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}

/**
 * One route: `first` is sent, then `sameReordered` (other key order and spacing, same JSON value)
 * must replay the first answer, and `different` (same key) must be 422 idempotency_mismatch.
 */
async function checkRoute(method: string, path: string, first: string, sameReordered: string, different: string) {
  // The test's own premise: the bytes differ, the parsed values do not (or do).
  expect(sameReordered).not.toBe(first);
  expect(JSON.parse(sameReordered)).toEqual(JSON.parse(first));
  expect(JSON.parse(different)).not.toEqual(JSON.parse(first));

  const key = randomUUID();
  const a = await send(method, path, first, key);
  expect(a.status, a.text).toBeLessThan(300);
  expect(a.headers.get('idempotent-replayed')).toBeNull();

  const b = await send(method, path, sameReordered, key);
  expect(b.status, b.text).toBe(a.status);
  expect(b.headers.get('idempotent-replayed')).toBe('true');
  expect(b.body).toEqual(a.body);

  const c = await send(method, path, different, key);
  expect(c.status, c.text).toBe(422);
  expect(c.body.code).toBe('idempotency_mismatch');
  return a;
}

describe('Idempotency-Key compares the parsed JSON body, not its bytes', () => {
  it('POST /api/v1/candidates: key order and spacing replay; another value is a mismatch', async () => {
    const name = `Payload ${randomUUID()}`;
    const first = await checkRoute(
      'POST',
      '/api/v1/candidates',
      JSON.stringify({ name, email: 'payload@example.com', stage: 'applied' }),
      `{\n  "stage" : "applied",\n\t"email":"payload@example.com" ,  "name":   ${JSON.stringify(name)}\n}\n`,
      JSON.stringify({ name, email: 'payload2@example.com', stage: 'applied' }),
    );
    expect(first.status).toBe(201);
    // Whitespace inside a string is part of the value: not the same request.
    const key = randomUUID();
    expect((await send('POST', '/api/v1/candidates', JSON.stringify({ name: 'Ada Lovelace' }), key)).status).toBe(201);
    const spaced = await send('POST', '/api/v1/candidates', JSON.stringify({ name: 'Ada  Lovelace' }), key);
    expect(spaced.status).toBe(422);
    expect(spaced.body.code).toBe('idempotency_mismatch');
  });

  it('POST /api/v1/pipeline: the same move reordered replays; another stage is a mismatch', async () => {
    const id = await newCandidate('Payload mover');
    const first = await checkRoute(
      'POST',
      '/api/v1/pipeline',
      JSON.stringify({ candidate_id: id, from_stage: 'applied', stage: 'ai_screened' }),
      `{ "stage":"ai_screened",  "candidate_id" : "${id}",\r\n "from_stage":"applied" }`,
      JSON.stringify({ candidate_id: id, from_stage: 'applied', stage: 'interview_scheduled' }),
    );
    expect(first.status).toBe(200);
    const detail = await stack.call('GET', `/api/v1/candidates/${id}`, { token });
    expect(detail.body.data.stage).toBe('ai_screened');
  });

  it('PATCH /api/v1/candidates/{id}: fields reordered replay; null instead of a value is a mismatch', async () => {
    const id = await newCandidate('Payload patch');
    const first = await checkRoute(
      'PATCH',
      `/api/v1/candidates/${id}`,
      JSON.stringify({ email: 'patched@example.com', phone: '+1 555 0100', resume_url: null }),
      '{"resume_url":null,"phone":"+1 555 0100",   "email":"patched@example.com"}',
      JSON.stringify({ email: 'patched@example.com', phone: null, resume_url: null }),
    );
    expect(first.status).toBe(200);
    const detail = await stack.call('GET', `/api/v1/candidates/${id}`, { token });
    expect(detail.body.data.phone).toBe('+1 555 0100');
  });
});
