/**
 * The console's reading of an offer: each step of the approval chain as the profile shows it,
 * whether an offer waits for a member (the Approvals page and the header's count), the terms a
 * version changed, and the placements' CSV.
 */
import { describe, expect, it } from 'vitest';
import { awaits, chainView, termChanges, type OfferDetail, type OfferVersion } from '../../console/src/offer-data';
import { placementsCsv, type Placement } from '../../console/src/placement-csv';
import type { ApprovalStep } from '../../lib/domain/offer-approvals';

const AT = '2026-11-27T10:00:00.000Z';
const terms = (over: Partial<OfferVersion> = {}): OfferVersion => ({
  version: 1,
  compensation: { amount: 65000, currency: 'EUR', period: 'year' },
  bonus: null,
  equity: null,
  start_date: '2027-03-01',
  expires_at: null,
  employment_type: 'direct_hire',
  location: 'Lisbon',
  note: null,
  created_at: AT,
  ...over,
});
const offer = (status: OfferDetail['status'], version: number, approvals: OfferDetail['approvals'] = []): OfferDetail => ({
  ...terms({ version }),
  id: '00000000-0000-4000-8000-000000000001',
  candidate_id: '00000000-0000-4000-8000-000000000002',
  req_id: null,
  status,
  reason: null,
  requested_at: status === 'draft' ? null : AT,
  approval_round_at: status === 'draft' ? null : AT,
  sent_at: null,
  updated_at: AT,
  versions: [terms({ version })],
  approvals,
});
const decision = (step: number, user_id: string, d: 'approve' | 'reject', version = 1) => ({
  step,
  user_id,
  decision: d,
  version,
  comment: null,
  at: AT,
});
const CHAIN: ApprovalStep[] = [
  { approvers: ['hm1', 'hm2'], mode: 'any' },
  { approvers: ['fin', 'ceo'], mode: 'all' },
  { approvers: ['board'], mode: 'any', above: { amount: 100000, currency: 'EUR' } },
];
const states = (o: OfferDetail) => chainView(CHAIN, o).steps.map((s) => s.state);

describe('the approval chain as the console shows it', () => {
  it('leaves out a step above an amount the offer is not above', () => {
    expect(chainView(CHAIN, offer('pending_approval', 1)).steps).toHaveLength(2);
  });

  it('marks every step not reached on a draft never sent for approval', () => {
    expect(states(offer('draft', 1))).toEqual(['not_reached', 'not_reached']);
    expect(awaits(CHAIN, offer('draft', 1), 'hm1')).toBe(false);
  });

  it('waits at the first step, then at the second once any-of is met; all-of waits for everyone', () => {
    const first = offer('pending_approval', 1);
    expect(states(first)).toEqual(['waiting', 'not_reached']);
    expect(awaits(CHAIN, first, 'hm2')).toBe(true);
    expect(awaits(CHAIN, first, 'fin')).toBe(false);

    const second = offer('pending_approval', 1, [decision(0, 'hm2', 'approve'), decision(1, 'fin', 'approve')]);
    expect(states(second)).toEqual(['approved', 'waiting']);
    // fin has decided at the step: only ceo is waited for.
    expect(awaits(CHAIN, second, 'fin')).toBe(false);
    expect(awaits(CHAIN, second, 'ceo')).toBe(true);
    expect(chainView(CHAIN, second).steps[1]!.approvers.map((a) => a.decision?.decision ?? null)).toEqual(['approve', null]);
  });

  it('marks the step an approver rejected, and waits for nobody', () => {
    const back = offer('draft', 1, [decision(0, 'hm1', 'approve'), decision(1, 'ceo', 'reject')]);
    expect(states(back)).toEqual(['approved', 'rejected']);
    expect(awaits(CHAIN, back, 'fin')).toBe(false);
  });

  it('counts only the current version: a change of terms asks the chain again', () => {
    const v2 = offer('pending_approval', 2, [decision(0, 'hm1', 'approve', 1)]);
    expect(states(v2)).toEqual(['waiting', 'not_reached']);
    expect(awaits(CHAIN, v2, 'hm1')).toBe(true);
  });
});

describe('comparing a version with the one before', () => {
  it('lists only the terms that changed, with both values', () => {
    const before = terms();
    const after = terms({ version: 2, compensation: { amount: 70000, currency: 'EUR', period: 'year' }, location: null });
    const changes = termChanges(before, after);
    expect(changes.map((c) => c.key)).toEqual(['compensation', 'location']);
    expect(changes[0]!.before).toContain('65');
    expect(changes[0]!.after).toContain('70');
    expect(changes[1]).toMatchObject({ before: 'Lisbon', after: '' });
    expect(termChanges(before, terms({ version: 2 }))).toEqual([]);
  });
});

describe('the placements CSV', () => {
  it('holds the loaded rows, the amount as a number, a formula-like cell quoted', () => {
    const row = {
      id: 'p1',
      candidate_id: 'c1',
      candidate_name: '=HYPERLINK("x")',
      person_id: null,
      req_id: 'r1',
      req_title: 'Engineer, Lisbon',
      status: 'active',
      offer_id: null,
      offer_version: null,
      start_date: '2027-03-01',
      end_date: null,
      compensation: { amount: 70000, currency: 'EUR', period: 'year' },
      employment_type: 'direct_hire',
      location: 'Lisbon',
      recruiter_id: null,
      hiring_manager_ids: [],
      source: null,
      hired_at: AT,
      cancelled_at: null,
      cancel_reason: null,
      created_at: AT,
      updated_at: AT,
    } satisfies Placement;
    const lines = placementsCsv([row]).split('\r\n');
    expect(lines[0]).toBe(
      'Candidate,Requisition,Status,Start date,End date,Amount,Currency,Period,Employment type,Location,Hired at,Placement id',
    );
    expect(lines[1]).toBe(`"'=HYPERLINK(""x"")","Engineer, Lisbon",active,2027-03-01,,70000,EUR,year,direct_hire,Lisbon,${AT},p1`);
  });
});
