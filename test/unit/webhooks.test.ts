/**
 * Webhook building blocks without I/O: stream records -> events, the envelope, both signature
 * schemes (checked against independent implementations: node:crypto and the `standardwebhooks`
 * library), the receiver-side verifier, the retry schedule and the stream filter.
 */
import { createHmac } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { matchesPattern } from '../../dev/stream';
import { EVENT_TYPES } from '../../lib/model';
import {
  DEFAULT_RETRY_SCHEDULE_S,
  MAX_DELAY_S,
  MAX_RETRY_AFTER_S,
  MAX_SCHEDULED_S,
  parseSchedule,
  retryDelayS,
} from '../../lib/webhooks/config';
import { envelope, STREAM_FILTER_PATTERNS, type WebhookEvent } from '../../lib/webhooks/events';
import { deliveryHeaders, generateSecret, SECRET_PREFIX } from '../../lib/webhooks/sign';
import { verifyWebhook } from '../../lib/webhooks/verify';
import { CAND, candidateImage, eventsFromRecord, type Img, REQ, streamRecord, T0, T1, TENANT } from '../helpers/lambda-records';

// ---- stream record builders ---------------------------------------------------------------

const candidate = candidateImage;
const record = streamRecord;

const move = (from: string, to: string, extra: Img = {}) =>
  record('MODIFY', candidate({ stage: to, updated_at: T1, stage_entered_at: T1, ...extra }), candidate({ stage: from, ...extra }));

const placement = (over: Img = {}): Img => ({
  PK: `T#${TENANT}`,
  SK: 'PLACEMENT#p1',
  type: 'placement',
  id: '01900000-0000-7000-8000-0000000000f1',
  tenant_id: TENANT,
  candidate_id: CAND,
  candidate_name: 'Zoë Ådahl',
  req_id: REQ,
  req_title: 'Backend Engineer',
  placed_at: T1,
  created_at: T1,
  ...over,
});

// ---- events -------------------------------------------------------------------------------

describe('eventsFromRecord', () => {
  it('candidate INSERT -> candidate.created', () => {
    const events = eventsFromRecord(record('INSERT', candidate()));
    expect(events).toHaveLength(1);
    const [e] = events as [WebhookEvent];
    expect(e.type).toBe('candidate.created');
    expect(e.tenantId).toBe(TENANT);
    expect(e.timestamp).toBe(T0);
    expect(e.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(e.data).toMatchObject({ candidateId: CAND, name: 'Zoë Ådahl', reqId: REQ, stage: 'applied' });
  });

  it('candidate INSERT without a requisition has reqId null', () => {
    const [e] = eventsFromRecord(record('INSERT', candidate({ req_id: undefined, req_title: undefined })));
    expect(e!.data.reqId).toBeNull();
  });

  it('MODIFY with a stage change -> candidate.stage_changed with exactly the spec data', () => {
    const events = eventsFromRecord(move('applied', 'interviewed'));
    expect(events.map((e) => e.type)).toEqual(['candidate.stage_changed']);
    expect(events[0]!.data).toEqual({
      candidateId: CAND,
      name: 'Zoë Ådahl',
      oldStage: 'applied',
      newStage: 'interviewed',
      reqId: REQ,
    });
    expect(events[0]!.timestamp).toBe(T1);
    expect(events[0]!.tenantId).toBe(TENANT);
  });

  it('MODIFY to offer_sent -> stage_changed and offer.sent', () => {
    const events = eventsFromRecord(move('interviewed', 'offer_sent'));
    expect(events.map((e) => e.type)).toEqual(['candidate.stage_changed', 'offer.sent']);
    expect(events[0]!.data).toMatchObject({ oldStage: 'interviewed', newStage: 'offer_sent' });
    expect(events[1]!.data).toMatchObject({ candidateId: CAND, name: 'Zoë Ådahl', reqId: REQ, reqTitle: 'Backend Engineer' });
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
  });

  it('MODIFY to offer_accepted -> stage_changed and offer.accepted', () => {
    const events = eventsFromRecord(move('offer_sent', 'offer_accepted'));
    expect(events.map((e) => e.type)).toEqual(['candidate.stage_changed', 'offer.accepted']);
    expect(events[1]!.data).toMatchObject({ candidateId: CAND, reqId: REQ, reqTitle: 'Backend Engineer' });
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
  });

  it('MODIFY of profile fields without a stage change -> candidate.updated naming what changed', () => {
    const r = record('MODIFY', candidate({ name: 'Renamed', email: 'new@example.com', updated_at: T1 }), candidate());
    const events = eventsFromRecord(r);
    expect(events.map((e) => e.type)).toEqual(['candidate.updated']);
    expect(events[0]!.timestamp).toBe(T1);
    expect(events[0]!.data).toMatchObject({
      candidateId: CAND,
      name: 'Renamed',
      email: 'new@example.com',
      changed: ['name', 'email'],
      updatedAt: T1,
    });
  });

  it('MODIFY of neither stage nor profile (index keys, last_used) -> nothing', () => {
    const r = record('MODIFY', candidate({ GSI4PK: 'x', updated_at: T1 }), candidate());
    expect(eventsFromRecord(r)).toEqual([]);
  });

  it('MODIFY without an old image -> nothing (no stage change can be proven)', () => {
    expect(eventsFromRecord(record('MODIFY', candidate({ stage: 'placed' })))).toEqual([]);
  });

  it('placement INSERT -> placement.created', () => {
    const events = eventsFromRecord(record('INSERT', placement()));
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('placement.created');
    expect(events[0]!.timestamp).toBe(T1);
    // The fields it always carried, and the record's (written before placements had them: nulls).
    expect(events[0]!.data).toEqual({
      placementId: '01900000-0000-7000-8000-0000000000f1',
      candidateId: CAND,
      name: 'Zoë Ådahl',
      reqId: REQ,
      reqTitle: 'Backend Engineer',
      placedAt: T1,
      personId: null,
      status: 'active',
      offerId: null,
      offerVersion: null,
      startDate: null,
      endDate: null,
      compensation: null,
      employmentType: null,
      location: null,
      recruiterId: null,
      hiringManagerIds: [],
      source: null,
      hiredAt: T1,
      cancelledAt: null,
      updatedAt: T1,
    });
  });

  it("placement.created from an accepted offer carries its terms and the requisition's team", () => {
    const offerId = '01900000-0000-7000-8000-0000000000a1';
    const hm = '01900000-0000-7000-8000-0000000000b1';
    const events = eventsFromRecord(
      record(
        'INSERT',
        placement({
          status: 'active',
          offer_id: offerId,
          offer_version: 2,
          start_date: '2027-01-04',
          amount: 72000,
          currency: 'EUR',
          period: 'year',
          employment_type: 'direct_hire',
          location: 'Lisbon',
          hiring_manager_ids: [hm],
          updated_at: T1,
        }),
      ),
    );
    expect(events[0]!.data).toMatchObject({
      offerId,
      offerVersion: 2,
      startDate: '2027-01-04',
      compensation: { amount: 72000, currency: 'EUR', period: 'year' },
      employmentType: 'direct_hire',
      location: 'Lisbon',
      hiringManagerIds: [hm],
    });
  });

  it('placement MODIFY of its dates or status -> placement.updated naming them; the erasure -> nothing', () => {
    const cancelled = eventsFromRecord(
      record(
        'MODIFY',
        placement({ status: 'cancelled', cancelled_at: T1, cancel_reason: 'Never started', updated_at: T1 }),
        placement({ status: 'active' }),
      ),
    );
    expect(cancelled.map((e) => e.type)).toEqual(['placement.updated']);
    expect(cancelled[0]!.data).toMatchObject({ status: 'cancelled', cancelledAt: T1, cancelReason: 'Never started', changed: ['status'] });
    expect(cancelled[0]!.data).not.toHaveProperty('name');
    const dated = eventsFromRecord(
      record('MODIFY', placement({ start_date: '2027-02-01', end_date: '2027-12-31', updated_at: T1 }), placement()),
    );
    expect(dated[0]!.data).toMatchObject({ startDate: '2027-02-01', endDate: '2027-12-31', changed: ['startDate', 'endDate'] });
  });

  it('other item types and other operations -> nothing', () => {
    const others: DynamoDBRecord[] = [
      // A requisition write that changes no field (a status or a counter): its history record is the event.
      record(
        'MODIFY',
        { PK: `T#${TENANT}`, SK: 'REQ#1', type: 'requisition', tenant_id: TENANT, id: '1', status: 'filled' },
        { PK: `T#${TENANT}`, SK: 'REQ#1', type: 'requisition', tenant_id: TENANT, id: '1', status: 'open' },
      ),
      record('MODIFY', { PK: `T#${TENANT}`, SK: 'STATS', n_applied: 2 }, { PK: `T#${TENANT}`, SK: 'STATS', n_applied: 1 }),
      record('INSERT', { PK: 'TOKEN#abc', SK: 'TOKEN', type: 'token', tenant_id: TENANT }),
      record('INSERT', { PK: `T#${TENANT}#WEBHOOKS`, SK: 'WH#1', type: 'webhook', tenant_id: TENANT, id: '1' }),
      record('INSERT', { PK: `T#${TENANT}#WEBHOOKS`, SK: 'ATT#1#2', type: 'webhook_attempt', id: '2' }),
      record('REMOVE', undefined, candidate()),
      record('MODIFY', placement({ req_title: 'Changed' }), placement()),
    ];
    for (const r of others) expect(eventsFromRecord(r), JSON.stringify(r.dynamodb?.NewImage ?? r.eventName)).toEqual([]);
  });

  it('event ids are stable for the same stream record and differ per type and per record', () => {
    const a = move('interviewed', 'offer_sent');
    const first = eventsFromRecord(a).map((e) => e.id);
    const again = eventsFromRecord(structuredClone(a)).map((e) => e.id);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(2);
    const other = eventsFromRecord({ ...a, eventID: 'another-stream-event' }).map((e) => e.id);
    expect(other.some((id) => first.includes(id))).toBe(false);
  });
});

describe('envelope', () => {
  it('has exactly event, data, timestamp (ISO 8601 UTC with ms) and tenantSlug', () => {
    for (const r of [record('INSERT', candidate()), move('applied', 'offer_sent'), record('INSERT', placement())]) {
      for (const e of eventsFromRecord(r)) {
        const parsed = JSON.parse(envelope(e, 'acme'));
        expect(Object.keys(parsed).sort()).toEqual(['data', 'event', 'tenantSlug', 'timestamp']);
        expect(parsed.event).toBe(e.type);
        expect(parsed.tenantSlug).toBe('acme');
        expect(parsed.data).toEqual(e.data);
        expect(parsed.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(new Date(parsed.timestamp).toISOString()).toBe(parsed.timestamp);
      }
    }
  });
});

// ---- signatures ---------------------------------------------------------------------------

describe('signatures', () => {
  const secret = generateSecret();
  const [event] = eventsFromRecord(move('applied', 'interviewed'));
  const body = envelope(event!, 'acme');
  const msg = { id: event!.id, type: event!.type, body };

  it('secrets are whsec_ + base64 of 32 random bytes', () => {
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    const raw = secret.slice(SECRET_PREFIX.length);
    expect(raw).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(raw, 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('headers: content type, event, service signature and Standard Webhooks headers', () => {
    const now = Date.parse('2025-03-02T11:30:15.999Z');
    const h = deliveryHeaders(secret, msg, now);
    expect(h['Content-Type']).toBe('application/json');
    expect(h['X-Service-Event']).toBe('candidate.stage_changed');
    expect(h['webhook-id']).toBe(event!.id);
    expect(h['webhook-timestamp']).toBe(String(Math.floor(now / 1000)));
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('X-Service-Signature is lowercase hex HMAC-SHA256(secret string, raw body)', () => {
    const h = deliveryHeaders(secret, msg);
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(h['X-Service-Signature']).toBe(expected);
    expect(h['X-Service-Signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the standardwebhooks library verifies our headers and rejects a tampered body', () => {
    const h = deliveryHeaders(secret, msg);
    const wh = new Webhook(secret);
    expect(wh.verify(body, h)).toEqual(JSON.parse(body));
    expect(wh.verify(Buffer.from(body, 'utf8'), h)).toEqual(JSON.parse(body));
    const tampered = body.replace('interviewed', 'offer_sent');
    expect(tampered).not.toBe(body);
    expect(() => wh.verify(tampered, h)).toThrow(WebhookVerificationError);
    // Another endpoint's secret must not verify.
    expect(() => new Webhook(generateSecret()).verify(body, h)).toThrow(WebhookVerificationError);
    // A different id (e.g. another event) must not verify with the same signature.
    expect(() => wh.verify(body, { ...h, 'webhook-id': 'evt_other' })).toThrow(WebhookVerificationError);
  });

  it('the body is signed byte-exactly (non-ASCII survives)', () => {
    const h = deliveryHeaders(secret, msg);
    expect(body).toContain('Zoë Ådahl');
    expect(new Webhook(secret).verify(Buffer.from(body, 'utf8'), h)).toBeTruthy();
    expect(createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex')).toBe(h['X-Service-Signature']);
  });

  describe('verifyWebhook', () => {
    const now = Date.now();
    const h = deliveryHeaders(secret, msg, now);
    const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

    it('accepts a genuine delivery (any header case, array values)', () => {
      expect(verifyWebhook(body, h, secret, { now })).toBe(true);
      expect(verifyWebhook(body, lower, secret, { now })).toBe(true);
      expect(verifyWebhook(body, { ...lower, 'x-service-signature': [h['X-Service-Signature']!] }, secret, { now })).toBe(true);
    });

    it('rejects a tampered body', () => {
      expect(verifyWebhook(`${body} `, h, secret, { now })).toBe(false);
      expect(verifyWebhook(body.replace('applied', 'rejected'), h, secret, { now })).toBe(false);
    });

    it('rejects a wrong, truncated or missing signature and a wrong secret', () => {
      const sig = h['X-Service-Signature']!;
      const flipped = `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;
      expect(verifyWebhook(body, { ...h, 'X-Service-Signature': flipped }, secret, { now })).toBe(false);
      expect(verifyWebhook(body, { ...h, 'X-Service-Signature': sig.slice(0, 32) }, secret, { now })).toBe(false);
      expect(verifyWebhook(body, { ...h, 'X-Service-Signature': undefined }, secret, { now })).toBe(false);
      expect(verifyWebhook(body, { ...h, 'webhook-signature': 'v1,AAAA' }, secret, { now })).toBe(false);
      expect(verifyWebhook(body, h, generateSecret(), { now })).toBe(false);
    });

    it('rejects a timestamp outside the tolerance (replay), in the past or the future', () => {
      expect(verifyWebhook(body, h, secret, { now: now + 301_000 })).toBe(false);
      expect(verifyWebhook(body, h, secret, { now: now - 301_000 })).toBe(false);
      const old = deliveryHeaders(secret, msg, now - 10 * 60_000);
      expect(verifyWebhook(body, old, secret, { now })).toBe(false);
      expect(verifyWebhook(body, old, secret, { now, toleranceSeconds: 3600 })).toBe(true);
      // A re-stamped timestamp without a matching signature is refused.
      expect(verifyWebhook(body, { ...old, 'webhook-timestamp': String(Math.floor(now / 1000)) }, secret, { now })).toBe(false);
    });
  });
});

// ---- retry schedule -----------------------------------------------------------------------

describe('retry schedule', () => {
  const lo = () => 0;
  const hi = () => 1;

  it("DEFAULT_RETRY_SCHEDULE_S is Svix's schedule", () => {
    expect(DEFAULT_RETRY_SCHEDULE_S).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(parseSchedule(undefined)).toEqual(DEFAULT_RETRY_SCHEDULE_S);
    expect(parseSchedule('')).toEqual(DEFAULT_RETRY_SCHEDULE_S);
  });

  it('jitter stays within ±20% of every slot and the attempt after the last has no delay', () => {
    const s = DEFAULT_RETRY_SCHEDULE_S;
    s.forEach((base, i) => {
      const attempt = i + 1;
      expect(retryDelayS(attempt, s, undefined, lo), `slot ${attempt} low`).toBe(Math.round(base * 0.8));
      expect(retryDelayS(attempt, s, undefined, hi), `slot ${attempt} high`).toBe(Math.min(Math.round(base * 1.2), MAX_DELAY_S));
      expect(
        retryDelayS(attempt, s, undefined, () => 0.5),
        `slot ${attempt} mid`,
      ).toBe(base);
      for (let k = 0; k < 50; k++) {
        const d = retryDelayS(attempt, s)!;
        expect(d).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
        expect(d).toBeLessThanOrEqual(Math.ceil(base * 1.2));
      }
    });
    expect(retryDelayS(s.length + 1, s, undefined, lo)).toBeUndefined();
    expect(retryDelayS(s.length + 5, s)).toBeUndefined();
    expect(retryDelayS(1, [], undefined, lo)).toBeUndefined();
    expect(retryDelayS(1, [0], undefined, hi)).toBe(0);
    expect(retryDelayS(2, [0], undefined, hi)).toBeUndefined();
  });

  it('Retry-After lengthens a delay, is capped at MAX_RETRY_AFTER_S and never shortens the schedule', () => {
    expect(MAX_RETRY_AFTER_S).toBe(6 * 3600);
    // Lengthens: 0 s slot, receiver asks for 2 s.
    expect(retryDelayS(1, [0, 0, 0], 2_000, hi)).toBe(2);
    expect(retryDelayS(1, [5], 60_000, hi)).toBe(60);
    // Capped: asks for 10 h, gets 6 h.
    expect(retryDelayS(1, [5], 10 * 3600_000, hi)).toBe(MAX_RETRY_AFTER_S);
    // Never shortens: slot 300 s (240..360 with jitter), receiver says 1 s.
    expect(retryDelayS(2, DEFAULT_RETRY_SCHEDULE_S, 1_000, lo)).toBe(240);
    expect(retryDelayS(2, DEFAULT_RETRY_SCHEDULE_S, 0, hi)).toBe(360);
    // A long slot stays long even if Retry-After is capped below it.
    expect(retryDelayS(6, DEFAULT_RETRY_SCHEDULE_S, 10 * 3600_000, lo)).toBe(28_800);
    // Retry-After does not resurrect an exhausted schedule.
    expect(retryDelayS(2, [5], 2_000, hi)).toBeUndefined();
  });

  it('the result stays below the 12 h SQS visibility limit, with room for the attempt itself', () => {
    expect(MAX_DELAY_S).toBeLessThan(43_200);
    expect(retryDelayS(1, [MAX_SCHEDULED_S], undefined, hi)).toBe(MAX_DELAY_S);
    expect(retryDelayS(7, DEFAULT_RETRY_SCHEDULE_S, undefined, hi)).toBe(MAX_DELAY_S);
    expect(retryDelayS(1, [36_000], 12 * 3600_000, hi)).toBe(MAX_DELAY_S);
  });

  it('parseSchedule parses whole seconds and rejects garbage', () => {
    expect(parseSchedule('0,1,1')).toEqual([0, 1, 1]);
    expect(parseSchedule(' 5 , 300 ')).toEqual([5, 300]);
    expect(parseSchedule('36000')).toEqual([36_000]);
    for (const bad of ['abc', '1,x', '-1', '1.5', '36001', '43200', '5;10', '1e9', 'NaN', 'Infinity', '5 300']) {
      expect(() => parseSchedule(bad), bad).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    }
  });

  // Regression: Number('') is 0, so empty entries once became immediate retries, and hex or
  // exponent forms passed as "whole seconds".
  it('parseSchedule rejects empty entries and non-decimal forms', () => {
    for (const bad of ['1,,2', ',', '5,300,', ' ', '0x10', '1e2']) {
      expect(() => parseSchedule(bad), JSON.stringify(bad)).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    }
  });
});

// ---- stream filter ------------------------------------------------------------------------

describe('STREAM_FILTER_PATTERNS with matchesPattern', () => {
  const passes = (r: DynamoDBRecord) => STREAM_FILTER_PATTERNS.some((p) => matchesPattern(p, r));

  it('accepts candidate INSERT and MODIFY and placement INSERT', () => {
    expect(passes(record('INSERT', candidate()))).toBe(true);
    expect(passes(move('applied', 'interviewed'))).toBe(true);
    expect(passes(record('MODIFY', candidate({ name: 'x' }), candidate()))).toBe(true);
    expect(passes(record('INSERT', placement()))).toBe(true);
  });

  it('rejects stats, tokens, webhooks and every REMOVE; lets requisitions, their status records and placement changes through', () => {
    const req = { PK: `T#${TENANT}`, SK: 'REQ#1', type: 'requisition', tenant_id: TENANT, id: '1', status: 'open' };
    expect(passes(record('INSERT', req))).toBe(true);
    expect(passes(record('MODIFY', { ...req, status: 'filled' }, req))).toBe(true);
    expect(passes(record('INSERT', { PK: `T#${TENANT}`, SK: 'REQ#1#H#0000000002', type: 'requisition_status', tenant_id: TENANT }))).toBe(
      true,
    );
    expect(passes(record('REMOVE', undefined, req))).toBe(false);
    expect(
      passes(record('MODIFY', { PK: `T#${TENANT}`, SK: 'STATS', n_applied: 2 }, { PK: `T#${TENANT}`, SK: 'STATS', n_applied: 1 })),
    ).toBe(false);
    expect(passes(record('INSERT', { PK: 'TOKEN#abc', SK: 'TOKEN', type: 'token', tenant_id: TENANT }))).toBe(false);
    expect(passes(record('INSERT', { PK: `T#${TENANT}`, SK: 'TOKEN#1', type: 'token', tenant_id: TENANT }))).toBe(false);
    expect(passes(record('INSERT', { PK: `T#${TENANT}#WEBHOOKS`, SK: 'ATT#1#2', type: 'webhook_attempt' }))).toBe(false);
    // A placement's change passes (its dates or a cancellation are placement.updated); one of no field of the record is no event.
    expect(passes(record('MODIFY', placement({ req_title: 'x' }), placement()))).toBe(true);
    expect(eventsFromRecord(record('MODIFY', placement({ GSI4SK: 'x' }), placement()))).toEqual([]);
    expect(eventsFromRecord(record('MODIFY', placement({ amount: undefined, erased_at: T1, candidate_name: '' }), placement()))).toEqual(
      [],
    );
    expect(passes(record('REMOVE', undefined, candidate()))).toBe(false);
    expect(passes(record('REMOVE', undefined, placement()))).toBe(false);
    // A scorecard's version passes (scorecard.submitted / scorecard.updated); its latest item does not.
    const version = { PK: `T#${TENANT}#SC#c1`, SK: 'SCV#i#u#000001', type: 'scorecard_version', tenant_id: TENANT, version: 1 };
    expect(passes(record('INSERT', version))).toBe(true);
    expect(passes(record('INSERT', { ...version, SK: 'SC#i#u', type: 'scorecard' }))).toBe(false);
    // The type attribute must be a string "candidate", not anything else.
    expect(passes(record('INSERT', candidate({ type: 'Candidate' })))).toBe(false);
  });

  it('every record the filter lets through that is not an event source yields no events, and every event source passes', () => {
    for (const r of [record('INSERT', candidate()), move('interviewed', 'offer_sent'), record('INSERT', placement())]) {
      expect(passes(r)).toBe(true);
      expect(eventsFromRecord(r).length).toBeGreaterThan(0);
    }
    for (const e of eventsFromRecord(move('offer_sent', 'offer_accepted'))) expect(EVENT_TYPES).toContain(e.type);
  });
});

// ---- review follow-ups ---------------------------------------------------------------------

describe('a candidate created straight into an offer stage', () => {
  const insert = (stage: string): DynamoDBRecord => ({
    eventID: `ins-${stage}`,
    eventName: 'INSERT',
    dynamodb: {
      NewImage: marshall({
        type: 'candidate',
        id: 'c1',
        tenant_id: 't1',
        name: 'Ada',
        stage,
        req_id: 'r1',
        req_title: 'Engineer',
        created_at: '2026-11-21T10:00:00.000Z',
        updated_at: '2026-11-21T10:00:00.000Z',
      }) as never,
    },
  });

  it('also emits offer.sent or offer.accepted, dated at creation', () => {
    expect(eventsFromRecord(insert('offer_sent')).map((e) => e.type)).toEqual(['candidate.created', 'offer.sent']);
    const accepted = eventsFromRecord(insert('offer_accepted'));
    expect(accepted.map((e) => e.type)).toEqual(['candidate.created', 'offer.accepted']);
    expect(accepted[1]!.data).toEqual({
      candidateId: 'c1',
      name: 'Ada',
      reqId: 'r1',
      reqTitle: 'Engineer',
      acceptedAt: '2026-11-21T10:00:00.000Z',
    });
    expect(eventsFromRecord(insert('interviewed')).map((e) => e.type)).toEqual(['candidate.created']);
  });
});

describe('verifyWebhook with hostile signatures', () => {
  it('answers false, never throws, for a signature of the right length in characters but not bytes', () => {
    const secret = generateSecret();
    const body = '{"event":"webhook.test"}';
    const headers = deliveryHeaders(secret, { id: 'evt_1', type: 'webhook.test', body });
    const forged = { ...headers, 'X-Service-Signature': 'é'.repeat(64) };
    expect(() => verifyWebhook(body, forged, secret)).not.toThrow();
    expect(verifyWebhook(body, forged, secret)).toBe(false);
    expect(verifyWebhook(body, headers, secret)).toBe(true);
  });

  it('refuses a delivery without the timestamped signature (no replay protection otherwise)', () => {
    const secret = generateSecret();
    const body = '{}';
    const { 'webhook-signature': _s, ...headers } = deliveryHeaders(secret, { id: 'evt_2', type: 'webhook.test', body });
    expect(verifyWebhook(body, headers, secret)).toBe(false);
  });
});
