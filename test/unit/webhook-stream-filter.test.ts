/**
 * The stream filter (STREAM_FILTER_PATTERNS, which the event source mapping and the local stream
 * poller both apply; dev/stream.ts's matchesPattern is the local one): what reaches the fan-out,
 * and that every event source passes while what else passes yields no events.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { matchesPattern } from '../../dev/stream';
import { EVENT_TYPES } from '../../lib/model';
import { STREAM_FILTER_PATTERNS } from '../../lib/webhooks/events';
import { eventsFromRecord, T1, TENANT } from '../helpers/lambda-records';
import { candidate, move, placement, record } from './webhook-records-fixture';

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
