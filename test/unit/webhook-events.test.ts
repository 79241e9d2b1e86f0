/**
 * Stream records -> webhook events without I/O (lib/webhooks/events.ts): which candidate and
 * placement changes become which events, with exactly what data, timestamp and stable id; a
 * candidate created straight into an offer stage; and the envelope a delivery's body carries.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { envelope, type WebhookEvent } from '../../lib/webhooks/events';
import { CAND, eventsFromRecord, REQ, T0, T1, TENANT } from '../helpers/lambda-records';
import { candidate, move, placement, record } from './webhook-records-fixture';

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
