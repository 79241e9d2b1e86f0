/**
 * Erasure end to end (POST /api/v1/candidates/{id}/erase): through the real pipeline (API ->
 * table -> stream -> fan-out -> SQS -> delivery -> HTTPS receivers that echo what they get), a
 * full Scan of the table finds the candidate's name, email and phone in the candidate, a kept
 * webhook body and an idempotency record before the erasure, and nowhere after it. A delivery
 * queued before the erasure is never sent; counts stay; a stage move still works.
 */
import { settleAudit } from '../../../helpers/audit';
import { describe, expect, it } from 'vitest';
import { scanTable } from '../../../helpers/scan';
import { type Receiver, signatureChecks, stack, startReceiver, until, workspace, type Workspace, usePipelineFixture } from './fixture';
import { PASSWORD } from '../../../helpers/stack';
import { deliveryRecord } from '../../../helpers/lambda-records';
import { lambdaContext } from '../../../../dev/events';
import { handler as webhookDelivery } from '../../../../functions/webhook-delivery';

usePipelineFixture();

const NAME = 'Zelinda Quorvath-Maple';
const EMAIL = 'zelinda.quorvath@example.org';
const PHONE = '+44 7700 900417';
/** What must not survive, compared case-insensitively (search tokens are lower case). */
const NEEDLES = ['Zelinda', 'Quorvath', 'Maple', EMAIL, PHONE, '7700 900417'];

/** Every item any attribute of which holds any needle, by kind. */
async function holders(): Promise<{ kind: string; needle: string }[]> {
  const found: { kind: string; needle: string }[] = [];
  for (const item of await scanTable({ TableName: stack.tableName })) {
    const text = JSON.stringify(item).toLowerCase();
    for (const needle of NEEDLES) {
      if (!text.includes(needle.toLowerCase())) continue;
      const pk = String(item.PK);
      const kind = pk.endsWith('#IDEM') ? 'idempotency' : String(item.type ?? pk);
      found.push({ kind, needle });
    }
  }
  return found;
}

let ws: Workspace;
let rx: Receiver;
let candidateId: string;
let reqId: string;
let endpointId: string;
/** The PATCH made with an Idempotency-Key before the erasure, to retry after it. */
let patchRetry: { key: string; body: Record<string, unknown> };

describe('erasing a candidate', () => {
  it('sets up a candidate whose data has reached kept bodies, attempts, placements and idempotency records', async () => {
    ws = await workspace();
    rx = await startReceiver();
    // Receivers that echo the payload: their answers land in the delivery log.
    rx.on('/echo', (hit, _req, res) => res.end(hit.body));
    endpointId = await ws.endpoint(rx.url('/echo'));
    const req = await stack.call('POST', '/api/v1/requisitions', { token: ws.token, body: { title: 'Erasure Engineer', headcount: 3 } });
    expect(req.status, req.text).toBe(201);
    reqId = req.body.data.id;
    const created = await stack.call('POST', '/api/v1/candidates', {
      token: ws.token,
      body: { name: NAME, email: EMAIL, req_id: reqId },
      headers: { 'Idempotency-Key': `erase-${Date.now()}` },
    });
    expect(created.status, created.text).toBe(201);
    candidateId = created.body.data.id;
    patchRetry = { key: `erase-patch-${Date.now()}`, body: { phone: PHONE, resume_url: 'https://cv.example.org/zelinda.pdf' } };
    const patched = await stack.call('PATCH', `/api/v1/candidates/${candidateId}`, {
      token: ws.token,
      body: patchRetry.body,
      headers: { 'Idempotency-Key': patchRetry.key },
    });
    expect(patched.status, patched.text).toBe(200);
    await ws.move(candidateId, 'offer_sent');
    await ws.move(candidateId, 'placed');
    // created, updated, stage_changed x2, offer.sent, placement.created.
    await until('six deliveries', () => rx.at('/echo').length >= 6);
    await until('the attempts logged', async () => (await ws.detail(endpointId)).deliveries.length >= 6);

    const before = await holders();
    const kinds = new Set(before.map((h) => h.kind));
    // The Scan would catch a copy: it finds the data where the service keeps it today.
    for (const kind of ['candidate', 'webhook_event', 'idempotency', 'webhook_attempt', 'placement', 'search'])
      expect(kinds).toContain(kind);
    for (const needle of [NAME.split(' ')[0]!, EMAIL, PHONE]) expect(before.some((h) => h.needle === needle)).toBe(true);
  });

  it('is refused to a token with candidates:write, and to another workspace (404, nothing changes)', async () => {
    const writer = await ws.tenant.token(['candidates:write', 'candidates:read']);
    const refused = await stack.call('POST', `/api/v1/candidates/${candidateId}/erase`, { token: writer });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('missing_scope');
    const other = await workspace();
    const foreign = await stack.call('POST', `/api/v1/candidates/${candidateId}/erase`, { token: other.token });
    expect(foreign.status).toBe(404);
    const still = await stack.call('GET', `/api/v1/candidates/${candidateId}`, { token: ws.token });
    expect(still.body.data.name).toBe(NAME);
    expect(still.body.data.erased_at).toBeUndefined();
  });

  it('is refused to a member in the console, and allowed to an admin there', async () => {
    const member = await ws.tenant.user('recruiter');
    const cookie = await stack.login(member.email, PASSWORD);
    const res = await stack.call('POST', `/api/candidates/${candidateId}/erase`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    // The admin's call on a candidate of its own (the one under test is erased by token below).
    const other = await ws.candidate('Console Erasable');
    const ok = await ws.session('POST', `/api/candidates/${other.id}/erase`);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.id).toBe(other.id);
    await settleAudit();
    const logged = await ws.session('GET', `/api/audit?target=${other.id}&action=candidate.erased`);
    expect(logged.body.data).toHaveLength(1);
    expect(logged.body.data[0].actor.type).toBe('user');
  });

  it('scrubs every copy, answers a receipt (the same twice), keeps the counts, and leaves nothing in a full Scan', async () => {
    const countsBefore = await stack.call('GET', '/api/v1/pipeline', { token: ws.token });
    const reqBefore = await stack.call('GET', `/api/v1/requisitions/${reqId}`, { token: ws.token });
    const eraser = await ws.tenant.token(['candidates:erase']);
    const first = await stack.call('POST', `/api/v1/candidates/${candidateId}/erase`, { token: eraser });
    expect(first.status, first.text).toBe(200);
    const receipt = first.body.data;
    expect(receipt.id).toBe(candidateId);
    expect(receipt.scrubbed.candidate).toBe(1);
    expect(receipt.scrubbed.webhook_events).toBeGreaterThanOrEqual(6);
    expect(receipt.scrubbed.delivery_attempts).toBeGreaterThanOrEqual(6);
    expect(receipt.scrubbed.placements).toBe(1);
    expect(receipt.scrubbed.idempotency_records).toBe(2);
    expect(receipt.scrubbed.search_entries).toBeGreaterThan(0);
    const again = await stack.call('POST', `/api/v1/candidates/${candidateId}/erase`, { token: ws.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // One audit record, written with the erasure (the second call wrote nothing): the token, every
    // personal field the candidate's declaration names (an application's answers and a rejection's note too), and what was scrubbed.
    await settleAudit();
    const logged = await ws.session('GET', `/api/audit?target=${candidateId}&action=candidate.erased`);
    expect(logged.status, logged.text).toBe(200);
    expect(logged.body.data).toHaveLength(1);
    expect(logged.body.data[0]).toMatchObject({ actor: { type: 'token' }, target: { type: 'candidate', id: candidateId } });
    expect(logged.body.data[0].changes).toEqual([
      { field: 'name' },
      { field: 'email' },
      { field: 'phone' },
      { field: 'resume_url' },
      { field: 'application' },
      { field: 'screening' },
      { field: 'rejection_note' },
      { field: 'scrubbed', after: receipt.scrubbed },
    ]);

    // The erasure's own event, without personal data.
    const erased = await until('candidate.erased', () =>
      rx.at('/echo').find((h) => h.env?.event === 'candidate.erased' && h.env.data.id === candidateId),
    );
    expect(erased.env.data).toEqual({ id: candidateId, erased_at: receipt.erased_at });

    const countsAfter = await stack.call('GET', '/api/v1/pipeline', { token: ws.token });
    expect(countsAfter.body.data.stage_counts).toEqual(countsBefore.body.data.stage_counts);
    expect(countsAfter.body.data.total_active).toBe(countsBefore.body.data.total_active);
    const reqAfter = await stack.call('GET', `/api/v1/requisitions/${reqId}`, { token: ws.token });
    expect(reqAfter.body.data.candidate_count).toBe(reqBefore.body.data.candidate_count);
    expect(reqAfter.body.data.hires).toBe(reqBefore.body.data.hires);

    const got = await stack.call('GET', `/api/v1/candidates/${candidateId}`, { token: ws.token });
    expect(got.body.data).toMatchObject({ name: '', email: null, phone: null, resume_url: null, stage: 'placed', req_id: reqId });
    expect(got.body.data.erased_at).toBe(receipt.erased_at);
    expect(got.body.data.stage_history.map((s: { stage: string }) => s.stage)).toEqual(['applied', 'offer_sent', 'placed']);
    const listed = await stack.call('GET', `/api/v1/candidates?req_id=${reqId}`, { token: ws.token });
    expect(listed.body.data.find((c: { id: string }) => c.id === candidateId)).toMatchObject({ name: '', erased_at: receipt.erased_at });
    const searched = await stack.call('GET', '/api/v1/candidates?q=zelinda', { token: ws.token });
    expect(searched.body.data).toEqual([]);

    expect(await holders()).toEqual([]);
  });

  it('drops a delivery queued before the erasure and records it as erased', async () => {
    const sent = rx.at('/echo').length;
    // The message as the fan-out queued it before the erasure: the full body, personal data included.
    const body = JSON.stringify({
      event: 'candidate.updated',
      data: { candidateId, name: NAME, email: EMAIL, phone: PHONE },
      timestamp: new Date().toISOString(),
      tenantSlug: ws.tenant.slug,
    });
    const msg = {
      v: 1,
      eventId: 'evt_0123456789abcdef0123456789abcdef',
      eventType: 'candidate.updated',
      tenantId: ws.tenant.id,
      endpointId,
      body,
      kept: true,
    };
    const res = await webhookDelivery({ Records: [deliveryRecord(1, JSON.stringify(msg))] }, lambdaContext('webhook-delivery'));
    expect(res.batchItemFailures).toEqual([]);
    expect(rx.at('/echo').length).toBe(sent);
    const log = await ws.detail(endpointId);
    const dropped = log.deliveries.find((d: { event_id: string }) => d.event_id === msg.eventId);
    expect(dropped).toMatchObject({ success: false, error_category: 'erased', response_body: null, response_status: 0 });
    expect(await holders()).toEqual([]);
  });

  it('answers a retry of an earlier idempotent write from its scrubbed record, writing nothing', async () => {
    const retry = await stack.call('PATCH', `/api/v1/candidates/${candidateId}`, {
      token: ws.token,
      body: patchRetry.body,
      headers: { 'Idempotency-Key': patchRetry.key },
    });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retry.body.data).toMatchObject({ id: candidateId, name: '', phone: null, resume_url: null, email: null });
    expect(await holders()).toEqual([]);
  });

  it('keeps stage moves working and refuses to set personal fields again', async () => {
    const moved = await ws.move(candidateId, 'onboarding');
    expect(moved).toMatchObject({ id: candidateId, name: '', stage: 'onboarding' });
    // A hire after the erasure: its placement event carries the empty name and goes out.
    await ws.move(candidateId, 'placed');
    await until('the placement delivered', () =>
      rx.at('/echo').some((h) => h.env?.event === 'placement.created' && h.env.data.candidateId === candidateId && h.env.data.name === ''),
    );
    const patch = await stack.call('PATCH', `/api/v1/candidates/${candidateId}`, { token: ws.token, body: { name: 'Someone Else' } });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('candidate_erased');
    // The candidate's own candidate.created, as its receiver got it before the erasure.
    const created = rx.at('/echo').find((h) => h.env?.event === 'candidate.created' && h.env.data.candidateId === candidateId)!;
    const resend = await ws.session('POST', `/api/webhooks/${endpointId}/resend`, { event_id: String(created.headers['webhook-id']) });
    expect(resend.status).toBe(409);
    expect(resend.body.code).toBe('candidate_erased');
    await until('the move delivered', () =>
      rx.at('/echo').some((h) => h.env?.event === 'candidate.stage_changed' && h.env.data.newStage === 'onboarding'),
    );
    expect(await holders()).toEqual([]);
  });
});

signatureChecks();
