/**
 * Offer rules as pure functions (lib/domain/offer-rules.ts, offer-access.ts), no DynamoDB: every
 * pair of the status matrix, the reason rule, the service-only status, sending past expiry, when a
 * change of terms makes a new version and asks for approval again, and who may read an offer.
 */
import { describe, expect, it } from 'vitest';

process.env.TABLE_NAME ??= 'unused';
const { decideOfferStatus, decideOfferTerms, judgeOfferTransition, checkOfferReason, allowedOfferNext, OfferLockedError } = await import(
  '../../lib/domain/offer-rules'
);
const { mayReadOffer, mayWriteOffer, readNeedsRequisition } = await import('../../lib/domain/offer-access');
const { InvalidTransitionError, ValidationError, ConflictError } = await import('../../lib/errors');
const { OFFER_STATUSES } = await import('../../lib/model');
type OfferRecord = import('../../lib/entities/offer').OfferRecord;
type OfferStatus = import('../../lib/model').OfferStatus;

const AT = '2026-11-27T12:00:00.000Z';
const offer = (over: Partial<OfferRecord> = {}): OfferRecord => ({
  id: 'o1',
  candidate_id: 'c1',
  req_id: null,
  status: 'draft',
  version: 1,
  amount: 90000,
  currency: 'EUR',
  period: 'year',
  bonus: null,
  equity: null,
  start_date: '2027-01-04',
  offer_expires_at: null,
  employment_type: null,
  location: null,
  note: null,
  reason: null,
  requested_at: null,
  approval_round_at: null,
  sent_at: null,
  created_at: AT,
  updated_at: AT,
  ...over,
});
const refusal = (d: object) => ('refuse' in d ? (d as { refuse: Error }).refuse : undefined);

// The published matrix, written out: a change to it must change this table too.
const ALLOWED: Record<OfferStatus, OfferStatus[]> = {
  draft: ['pending_approval', 'rescinded'],
  pending_approval: ['approved', 'draft', 'rescinded', 'expired'],
  approved: ['sent', 'rescinded', 'expired'],
  sent: ['accepted', 'declined', 'rescinded', 'expired'],
  accepted: [],
  declined: [],
  rescinded: [],
  expired: [],
};
const PAIRS = OFFER_STATUSES.flatMap((from) => OFFER_STATUSES.map((to) => [from, to] as const));

describe('the offer status matrix', () => {
  it.each(PAIRS)('%s -> %s', (from, to) => {
    if (from === to) return expect(judgeOfferTransition(from, to)).toBe('noop');
    if (ALLOWED[from].includes(to)) return expect(judgeOfferTransition(from, to)).toBe('change');
    let err: unknown;
    try {
      judgeOfferTransition(from, to);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidTransitionError);
    const e = err as InstanceType<typeof InvalidTransitionError>;
    expect(e.status).toBe(409);
    expect(e).toMatchObject({ code: 'invalid_transition', field: 'status', allowed: ALLOWED[from] });
    expect(e.message).toMatch(new RegExp(`^an offer cannot go from ${from} to ${to}`));
  });

  it('the outcomes are final', () => {
    for (const s of ['accepted', 'declined', 'rescinded', 'expired'] as const) expect(allowedOfferNext(s)).toEqual([]);
  });
});

describe('decideOfferStatus', () => {
  const decide = (o: OfferRecord, status: OfferStatus, extra: { reason?: string; by?: 'api' | 'system'; at?: string } = {}) =>
    decideOfferStatus(o, { status, by: extra.by ?? 'api', at: extra.at ?? AT, reason: extra.reason });

  it('the current status is done, with nothing to write', () => {
    expect(decide(offer({ status: 'sent' }), 'sent')).toEqual({ done: offer({ status: 'sent' }) });
  });

  it("expired is the service's: a caller asking for it is a 400 on status; the scheduled run may set it", () => {
    const e = refusal(decide(offer({ status: 'sent' }), 'expired'));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e).toMatchObject({ field: 'status' });
    expect(decide(offer({ status: 'sent' }), 'expired', { by: 'system' })).toMatchObject({ write: { to: 'expired', closes: true } });
  });

  it('the first approval request stamps requested_at; a later one keeps the first', () => {
    expect(decide(offer(), 'pending_approval')).toMatchObject({ write: { set: { requested_at: AT }, closes: false } });
    const again = decide(offer({ requested_at: '2026-11-01T00:00:00.000Z' }), 'pending_approval');
    expect('write' in again && again.write.set.requested_at).toBeUndefined();
    // Each request opens a round of its own: the chain decides on the decisions since.
    expect('write' in again && again.write.set.approval_round_at).toBe(AT);
  });

  it('an offer past expires_at is not sent (409 on expires_at); before it, sending stamps sent_at', () => {
    const late = refusal(decide(offer({ status: 'approved', offer_expires_at: '2026-11-27T11:59:59.000Z' }), 'sent'));
    expect(late).toBeInstanceOf(ConflictError);
    expect(late).toMatchObject({ field: 'expires_at' });
    expect(decide(offer({ status: 'approved', offer_expires_at: '2026-12-01T00:00:00.000Z' }), 'sent')).toMatchObject({
      write: { set: { status: 'sent', sent_at: AT }, closes: false },
    });
  });

  it("an outcome frees the candidate's open-offer slot and keeps the reason", () => {
    expect(decide(offer({ status: 'sent' }), 'declined', { reason: 'Took another offer' })).toMatchObject({
      write: { set: { status: 'declined', reason: 'Took another offer' }, closes: true },
    });
    expect(decide(offer({ status: 'sent' }), 'accepted')).toMatchObject({ write: { closes: true, remove: ['reason'] } });
  });

  it('the audit names the reason, never its words (it is personal)', () => {
    const d = decideOfferStatus(offer({ status: 'sent' }), {
      status: 'rescinded',
      reason: 'Budget cut',
      by: 'api',
      at: AT,
      audit: { action: 'offer.status_changed', actor: { type: 'token', id: 't' }, target: { type: 'offer', id: 'o1' } },
    });
    expect('write' in d && d.write.audit?.changes).toEqual([{ field: 'status', before: 'sent', after: 'rescinded' }, { field: 'reason' }]);
  });
});

describe('checkOfferReason', () => {
  it.each(['declined', 'rescinded'] as const)('%s needs a reason', (s) => {
    expect(() => checkOfferReason(s, undefined)).toThrow(ValidationError);
    expect(checkOfferReason(s, 'why')).toBe('why');
  });
  it('other statuses need none', () => expect(checkOfferReason('sent', undefined)).toBeUndefined());
});

describe('decideOfferTerms', () => {
  const terms = (o: OfferRecord, patch: object) => decideOfferTerms(o, patch, { at: AT });

  it('before approval was asked for, the draft changes in place (same version)', () => {
    expect(terms(offer(), { amount: 95000 })).toMatchObject({ write: { version: 1, newVersion: false, set: { amount: 95000 } } });
  });

  it('after the first request every change makes a new version; a draft stays a draft', () => {
    const d = terms(offer({ requested_at: AT, version: 2 }), { start_date: '2027-02-01' });
    expect(d).toMatchObject({ write: { version: 3, newVersion: true } });
    expect('write' in d && d.write.set.status).toBeUndefined();
  });

  it('a change to an approved offer makes a new version and asks for approval again', () => {
    expect(terms(offer({ status: 'approved', requested_at: AT }), { amount: 99000 })).toMatchObject({
      write: { version: 2, newVersion: true, set: { status: 'pending_approval' } },
    });
  });

  it('a change mid-approval makes a new version and stays pending', () => {
    const d = terms(offer({ status: 'pending_approval', requested_at: AT }), { location: 'Lyon' });
    expect(d).toMatchObject({ write: { version: 2, newVersion: true } });
    expect('write' in d && d.write.set.status).toBeUndefined();
  });

  it.each(['sent', 'accepted', 'declined', 'rescinded', 'expired'] as const)('a %s offer is locked', (status) => {
    expect(refusal(terms(offer({ status }), { amount: 1 }))).toBeInstanceOf(OfferLockedError);
  });

  it('the same terms again write nothing; null clears an optional term', () => {
    expect(terms(offer({ requested_at: AT }), { amount: 90000, currency: 'EUR' })).toEqual({ done: offer({ requested_at: AT }) });
    expect(terms(offer({ note: 'x' }), { note: null })).toMatchObject({ write: { remove: ['note'] } });
  });
});

describe('who may read and write offers', () => {
  it('admins and recruiters (today: members) read and write every offer', () => {
    for (const role of ['admin', 'member', 'recruiter']) {
      expect(mayReadOffer({ role, userId: 'u1' })).toBe(true);
      expect(mayWriteOffer({ role, userId: 'u1' })).toBe(true);
      expect(readNeedsRequisition({ role, userId: 'u1' })).toBe(false);
    }
  });

  it("a requisition's hiring manager reads its offers, and writes none", () => {
    const hm = { role: 'hiring_manager', userId: 'u2' };
    expect(readNeedsRequisition(hm)).toBe(true);
    expect(mayReadOffer(hm, ['u2'])).toBe(true);
    expect(mayReadOffer(hm, ['u3'])).toBe(false);
    expect(mayReadOffer(hm)).toBe(false);
    expect(mayWriteOffer(hm)).toBe(false);
  });

  it('an interviewer never reads an offer, even when named a hiring manager', () => {
    const iv = { role: 'interviewer', userId: 'u4' };
    expect(mayReadOffer(iv, ['u4'])).toBe(false);
    expect(mayWriteOffer(iv)).toBe(false);
    expect(readNeedsRequisition(iv)).toBe(false);
  });
});
