import { describe, expect, it } from 'vitest';
import { InvalidTransitionError, ValidationError } from '../../lib/errors';
import { REQ_STATUSES, type ReqStatus } from '../../lib/model';
import { allowedNext, checkReason, judgeTransition, placementOutcome } from '../../lib/domain/requisition-rules';

/** The matrix as published: from -> allowed targets. */
const MATRIX: Record<ReqStatus, ReqStatus[]> = {
  draft: ['open', 'closed'],
  open: ['on_hold', 'filled', 'closed'],
  on_hold: ['open', 'closed'],
  filled: ['open', 'closed'],
  closed: ['open'],
};

describe('requisition status matrix', () => {
  const pairs = REQ_STATUSES.flatMap((from) => REQ_STATUSES.map((to) => [from, to] as const));
  it.each(pairs)('%s -> %s', (from, to) => {
    if (from === to) return expect(judgeTransition(from, to)).toBe('noop');
    if (MATRIX[from].includes(to)) return expect(judgeTransition(from, to)).toBe('change');
    let err: unknown;
    try {
      judgeTransition(from, to);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidTransitionError);
    const e = err as InvalidTransitionError;
    expect(e.status).toBe(409);
    expect(e.code).toBe('invalid_transition');
    expect(e.allowed).toEqual(MATRIX[from]);
    for (const next of MATRIX[from]) expect(e.message).toContain(next);
  });

  it('never goes back to draft', () => {
    for (const from of REQ_STATUSES) if (from !== 'draft') expect(allowedNext(from)).not.toContain('draft');
  });
});

describe('reason rule', () => {
  it.each(['on_hold', 'closed'] as const)('requires a reason for %s', (to) => {
    expect(() => checkReason(to, undefined)).toThrow(ValidationError);
    try {
      checkReason(to, undefined);
    } catch (e) {
      expect((e as ValidationError).field).toBe('reason');
    }
    expect(checkReason(to, 'budget freeze')).toBe('budget freeze');
  });
  it.each(['open', 'filled', 'draft'] as const)('keeps a reason optional for %s', (to) => {
    expect(checkReason(to, undefined)).toBeUndefined();
    expect(checkReason(to, 'why not')).toBe('why not');
  });
});

describe('filled rule', () => {
  it('fills an open requisition when a hire reaches its headcount', () => {
    expect(placementOutcome({ status: 'open', hires: 2, headcount: 3 })).toBe('fills');
    expect(placementOutcome({ status: 'open', hires: 0, headcount: 1 })).toBe('fills');
  });
  it('counts a hire below the headcount', () => {
    expect(placementOutcome({ status: 'open', hires: 0, headcount: 3 })).toBe('counts');
    expect(placementOutcome({ status: 'open', hires: 1, headcount: 3 })).toBe('counts');
  });
  it.each(['on_hold', 'closed', 'draft', 'filled'] as const)('never fills a requisition that is %s', (status) => {
    expect(placementOutcome({ status, hires: 2, headcount: 3 })).toBe('counts');
  });
  it('refuses a hire beyond the headcount, whatever the status', () => {
    for (const status of REQ_STATUSES) expect(placementOutcome({ status, hires: 3, headcount: 3 })).toBe('full');
  });
  it('never limits or fills a requisition without a headcount', () => {
    expect(placementOutcome({ status: 'open', hires: 50, headcount: null })).toBe('counts');
  });
});
