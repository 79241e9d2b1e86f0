/**
 * Rejection reasons: the workspace's list and its require setting in the pipeline settings, and
 * a move into `rejected` that gives a reason and a note (on the candidate, its stage history and
 * the stage_changed event; the note personal: in none of the last two, and erased).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REJECTION_REASONS, MAX_REJECTION_REASONS } from '../../lib/model';
import { settleAudit } from '../helpers/audit';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { getCandidate } from '../../lib/store/candidates';
import { queryAll, tableName } from '../../lib/store/client';
import { keys } from '../../lib/store/table';
import { eventsFromChange } from '../../lib/webhooks/events';
import { EVENT_DATA } from '../../lib/webhooks/payloads';

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let cookieA: string;
let memberA: string;
let cookieB: string;

beforeAll(async () => {
  stack = await startStack();
  [a, b] = [await stack.tenant(), await stack.tenant()];
  tokenA = await a.token(['*']);
  cookieA = await stack.login((await a.user('admin')).email, PASSWORD);
  memberA = await stack.login((await a.user('recruiter')).email, PASSWORD);
  cookieB = await stack.login((await b.user('admin')).email, PASSWORD);
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
const put = (cookie: string, body: Record<string, unknown>) =>
  stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: {}, ...body }));
const move = (body: Record<string, unknown>) => stack.call('POST', '/api/v1/pipeline', { token: tokenA, body });
async function newCandidate(name = 'Rita Reject') {
  const res = await stack.call('POST', '/api/v1/candidates', { token: tokenA, body: { name, stage: 'interviewed' } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}
const OWN = [
  { id: 'ghosted', label: 'Stopped answering', type: 'candidate_withdrew' },
  { id: 'too_junior', label: 'Too junior for the role', type: 'we_rejected' },
];

describe('the pipeline settings hold the rejection reasons', () => {
  it('answers the default list and require_rejection_reason false until the workspace saves its own, to members too', async () => {
    const t = await stack.tenant();
    const cookie = await stack.login((await t.user('recruiter')).email, PASSWORD);
    const res = await stack.call('GET', '/api/settings/pipeline', as(cookie));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.rejection_reasons).toEqual(DEFAULT_REJECTION_REASONS);
    expect(res.body.data.require_rejection_reason).toBe(false);
  });

  it.each([
    ['an empty list', { rejection_reasons: [] }, 'rejection_reasons'],
    [
      'too many',
      { rejection_reasons: Array.from({ length: MAX_REJECTION_REASONS + 1 }, (_, i) => ({ ...OWN[1], id: `r${i}` })) },
      'rejection_reasons',
    ],
    ['a label too long', { rejection_reasons: [{ ...OWN[0], label: 'x'.repeat(81) }] }, 'rejection_reasons'],
    ['an empty label', { rejection_reasons: [{ ...OWN[0], label: '  ' }] }, 'rejection_reasons'],
    ['an unknown type', { rejection_reasons: [{ ...OWN[0], type: 'ghosted' }] }, 'rejection_reasons'],
    ['a bad id', { rejection_reasons: [{ ...OWN[0], id: 'Not An Id' }] }, 'rejection_reasons'],
    ['a repeated id', { rejection_reasons: [OWN[0], { ...OWN[1], id: 'ghosted' }] }, 'rejection_reasons'],
    ['an unknown key', { rejection_reasons: [{ ...OWN[0], extra: 1 }] }, 'rejection_reasons'],
    ['a non-boolean flag', { require_rejection_reason: 'yes' }, 'require_rejection_reason'],
  ])('refuses %s with a 400 naming the field', async (_what, body, field) => {
    const res = await put(cookieA, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('invalid_field');
    expect(res.body.field.startsWith(field), res.body.field).toBe(true);
  });

  it('an admin saves them; left out, they stay; audited with the settings record; a member may not', async () => {
    const t = await stack.tenant();
    const cookie = await stack.login((await t.user('admin')).email, PASSWORD);
    const saved = await put(cookie, { rejection_reasons: OWN, require_rejection_reason: true });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toMatchObject({ rejection_reasons: OWN, require_rejection_reason: true });
    // A save of the thresholds alone keeps them, and does not answer them.
    const again = await put(cookie, { stuck_days: { applied: 4 } });
    expect(again.body.data).not.toHaveProperty('rejection_reasons');
    const got = await stack.call('GET', '/api/settings/pipeline', as(cookie));
    expect(got.body.data).toMatchObject({ rejection_reasons: OWN, require_rejection_reason: true });
    await settleAudit();
    const audit = await stack.call('GET', '/api/audit?action=settings.pipeline_changed&limit=10', as(cookie));
    const changes = audit.body.data.flatMap((r: { changes: { field: string }[] }) => r.changes);
    expect(changes).toEqual(
      expect.arrayContaining([
        { field: 'rejection_reasons', after: OWN },
        { field: 'require_rejection_reason', after: true },
      ]),
    );
    const member = await stack.login((await t.user('recruiter')).email, PASSWORD);
    expect((await put(member, { rejection_reasons: OWN })).status).toBe(403);
    expect((await put(memberA, { rejection_reasons: OWN })).status).toBe(403);
  });
});

describe('a move into rejected with a reason', () => {
  it('keeps the reason and the note on the candidate, the reason alone on its history and its event', async () => {
    const id = await newCandidate();
    const before = await getCandidate(a.id, id);
    const res = await move({
      candidate_id: id,
      stage: 'rejected',
      rejection_reason_id: 'no_response',
      rejection_note: 'Three calls\nno answer',
    });
    expect(res.status, res.text).toBe(200);
    const label = DEFAULT_REJECTION_REASONS.find((r) => r.id === 'no_response')!.label;
    const got = await stack.call('GET', `/api/v1/candidates/${id}`, { token: tokenA });
    expect(got.body.data.rejection).toEqual({ reason_id: 'no_response', label, type: 'we_rejected', note: 'Three calls\nno answer' });
    expect(got.body.data).not.toHaveProperty('rejection_note');
    // The history answers the reason on the stay the move began, never the note.
    const stays = got.body.data.stage_history as Record<string, unknown>[];
    expect(stays.at(-1)).toMatchObject({ stage: 'rejected', rejection_reason: { id: 'no_response', label, type: 'we_rejected' } });
    expect(stays[0]).not.toHaveProperty('rejection_reason');
    expect(JSON.stringify(stays)).not.toContain('Three calls');
    // A list and a search answer it as the candidate does.
    const listed = await stack.call('GET', '/api/v1/candidates?limit=100', { token: tokenA });
    expect(listed.body.data.find((c: { id: string }) => c.id === id).rejection).toEqual(got.body.data.rejection);
    const found = await stack.call('GET', '/api/v1/candidates?q=rita', { token: tokenA });
    expect(found.body.data.find((c: { id: string }) => c.id === id).rejection).toEqual(got.body.data.rejection);

    const history = await queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': keys.tenantPartition(a.id), ':p': keys.stageMovePrefix(id) },
    });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ reason_id: 'no_response', reason_label: label, reason_type: 'we_rejected' });
    expect(JSON.stringify(history)).not.toContain('Three calls');

    const after = await getCandidate(a.id, id);
    const [event] = eventsFromChange({ id: 'e1', name: 'MODIFY', sequence: '1', keys: {}, oldImage: before, newImage: after });
    expect(event!.type).toBe('candidate.stage_changed');
    expect(event!.data).toMatchObject({
      newStage: 'rejected',
      rejectionReasonId: 'no_response',
      rejectionReasonLabel: label,
      rejectionType: 'we_rejected',
    });
    expect(EVENT_DATA['candidate.stage_changed'].safeParse(event!.data).success).toBe(true);
    expect(JSON.stringify(event)).not.toContain('Three calls');

    await settleAudit();
    const cookieAudit = await stack.call('GET', `/api/audit?action=candidate.stage_changed&limit=100`, as(cookieA));
    expect(JSON.stringify(cookieAudit.body.data)).not.toContain('Three calls');
    expect(JSON.stringify(cookieAudit.body.data)).toContain('no_response');
  });

  it('moving out of rejected clears it; a rejection without a reason has none', async () => {
    const id = await newCandidate();
    expect((await move({ candidate_id: id, stage: 'rejected', rejection_reason_id: 'not_interested', rejection_note: 'n' })).status).toBe(
      200,
    );
    expect((await move({ candidate_id: id, stage: 'applied' })).status).toBe(200);
    const got = await stack.call('GET', `/api/v1/candidates/${id}`, { token: tokenA });
    expect(got.body.data.rejection).toBeNull();
    const item = await getCandidate(a.id, id);
    expect(item).not.toHaveProperty('rejection_note');
    expect(item).not.toHaveProperty('rejection');
    expect((await move({ candidate_id: id, stage: 'rejected' })).status).toBe(200);
    expect((await stack.call('GET', `/api/v1/candidates/${id}`, { token: tokenA })).body.data.rejection).toBeNull();
  });

  it.each([
    ['a reason with another stage', { stage: 'applied', rejection_reason_id: 'no_response' }, 'rejection_reason_id'],
    ['a note with another stage', { stage: 'applied', rejection_note: 'n' }, 'rejection_note'],
    ['an unknown reason', { stage: 'rejected', rejection_reason_id: 'nope' }, 'rejection_reason_id'],
    ['a note without a reason', { stage: 'rejected', rejection_note: 'n' }, 'rejection_reason_id'],
    ['a note too long', { stage: 'rejected', rejection_reason_id: 'no_response', rejection_note: 'x'.repeat(2001) }, 'rejection_note'],
    [
      'a note of control characters',
      { stage: 'rejected', rejection_reason_id: 'no_response', rejection_note: 'a\u0000b' },
      'rejection_note',
    ],
    ['a reason id of the wrong type', { stage: 'rejected', rejection_reason_id: 7 }, 'rejection_reason_id'],
  ])('refuses %s with a 400 naming the field, and moves nothing', async (_what, body, field) => {
    const id = await newCandidate();
    const res = await move({ candidate_id: id, ...body });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_field', field });
    expect((await getCandidate(a.id, id))!.stage).toBe('interviewed');
  });

  it("refuses another workspace's reason id; its own list replaces the defaults; the session twin takes them too", async () => {
    expect((await put(cookieB, { rejection_reasons: [{ id: 'b_only', label: 'B only', type: 'we_rejected' }] })).status).toBe(200);
    const id = await newCandidate();
    const res = await move({ candidate_id: id, stage: 'rejected', rejection_reason_id: 'b_only' });
    expect(res.status, res.text).toBe(400);
    expect(res.body.field).toBe('rejection_reason_id');
    // In B, the default ids are no longer reasons.
    const tokenB = await b.token(['*']);
    const inB = await stack.call('POST', '/api/v1/candidates', { token: tokenB, body: { name: 'Bea' } });
    const defaultInB = await stack.call('POST', '/api/v1/pipeline', {
      token: tokenB,
      body: { candidate_id: inB.body.data.id, stage: 'rejected', rejection_reason_id: 'no_response' },
    });
    expect(defaultInB.body.field).toBe('rejection_reason_id');
    const twin = await stack.call(
      'POST',
      '/api/pipeline',
      as(cookieB, { candidate_id: inB.body.data.id, stage: 'rejected', rejection_reason_id: 'b_only' }),
    );
    expect(twin.status, twin.text).toBe(200);
    const got = await stack.call('GET', `/api/v1/candidates/${inB.body.data.id}`, { token: tokenB });
    expect(got.body.data.rejection).toEqual({ reason_id: 'b_only', label: 'B only', type: 'we_rejected', note: null });
  });

  it('a workspace that requires a reason refuses a rejection without one; other moves need none', async () => {
    const t = await stack.tenant();
    const cookie = await stack.login((await t.user('admin')).email, PASSWORD);
    const token = await t.token(['*']);
    expect((await put(cookie, { require_rejection_reason: true })).status).toBe(200);
    const c = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Req Uired' } });
    const id = c.body.data.id;
    const bare = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'rejected' } });
    expect(bare.status, bare.text).toBe(400);
    expect(bare.body).toMatchObject({ code: 'invalid_field', field: 'rejection_reason_id' });
    expect((await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: id, stage: 'interviewed' } })).status).toBe(200);
    const given = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: id, stage: 'rejected', rejection_reason_id: 'culture_fit' },
    });
    expect(given.status, given.text).toBe(200);
  });

  it('erasure removes the note; the reason stays', async () => {
    const id = await newCandidate('Erin Erase');
    expect(
      (await move({ candidate_id: id, stage: 'rejected', rejection_reason_id: 'no_response', rejection_note: 'erase me please' })).status,
    ).toBe(200);
    const erased = await stack.call('POST', `/api/v1/candidates/${id}/erase`, { token: tokenA });
    expect(erased.status, erased.text).toBe(200);
    const got = await stack.call('GET', `/api/v1/candidates/${id}`, { token: tokenA });
    expect(got.body.data.rejection).toMatchObject({ reason_id: 'no_response', note: null });
    expect(got.body.data.stage_history.at(-1).rejection_reason).toEqual({
      id: 'no_response',
      label: expect.any(String),
      type: 'we_rejected',
    });
    expect(JSON.stringify(await getCandidate(a.id, id))).not.toContain('erase me');
    // An erased candidate keeps no new note.
    expect((await move({ candidate_id: id, stage: 'applied' })).status).toBe(200);
    const again = await move({ candidate_id: id, stage: 'rejected', rejection_reason_id: 'no_response', rejection_note: 'again' });
    expect(again.status, again.text).toBe(409);
    expect(again.body).toMatchObject({ code: 'candidate_erased', field: 'rejection_note' });
  });

  it('rejected=true lists only the rejected, with their count, by requisition too and paged; not with stage', async () => {
    const t = await stack.tenant();
    const token = await t.token(['*']);
    const call = (path: string) => stack.call('GET', path, { token });
    const req = (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Rejecting role', status: 'open' } })).body.data
      .id;
    const ids: string[] = [];
    for (const name of ['Una', 'Vic', 'Wes', 'Xia']) {
      const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name, req_id: req } });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.data.id);
    }
    for (const id of ids.slice(0, 3)) {
      const moved = await stack.call('POST', '/api/v1/pipeline', {
        token,
        body: { candidate_id: id, stage: 'rejected', rejection_reason_id: 'no_response' },
      });
      expect(moved.status, moved.text).toBe(200);
    }
    const all = await call('/api/v1/candidates?rejected=true');
    expect(all.status, all.text).toBe(200);
    expect(all.body.count).toBe(3);
    expect(all.body.data.map((c: { id: string }) => c.id).sort()).toEqual(ids.slice(0, 3).sort());
    expect(all.body.data.every((c: { stage: string; rejection: unknown }) => c.stage === 'rejected' && c.rejection)).toBe(true);
    const byReq = await call(`/api/v1/candidates?rejected=true&req_id=${req}&limit=2`);
    expect(byReq.body.count).toBe(3);
    expect(byReq.body.data).toHaveLength(2);
    const rest = await call(`/api/v1/candidates?rejected=true&req_id=${req}&limit=2&cursor=${encodeURIComponent(byReq.body.next_cursor)}`);
    expect(rest.status, rest.text).toBe(200);
    expect([...byReq.body.data, ...rest.body.data].map((c: { id: string }) => c.id).sort()).toEqual(ids.slice(0, 3).sort());
    const found = await call('/api/v1/candidates?rejected=true&q=una');
    expect(found.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    // A cursor of the unfiltered list does not page the rejected one.
    const plain = await call('/api/v1/candidates?limit=1');
    expect((await call(`/api/v1/candidates?rejected=true&cursor=${encodeURIComponent(plain.body.next_cursor)}`)).status).toBe(400);
    for (const [query, field] of [
      ['rejected=true&stage=applied', 'rejected'],
      ['rejected=false', 'rejected'],
      ['rejected=yes', 'rejected'],
    ] as const) {
      const res = await call(`/api/v1/candidates?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.field, query).toBe(field);
    }
    // Another workspace's rejected are not listed.
    expect(
      (await stack.call('GET', '/api/v1/candidates?rejected=true', { token: tokenA })).body.data.map((c: { id: string }) => c.id),
    ).not.toContain(ids[0]);
  });
});
