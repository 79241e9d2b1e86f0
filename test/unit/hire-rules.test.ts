/**
 * The hire path's rules as pure functions (lib/domain/candidate-rules.ts, requisition-rules.ts),
 * no DynamoDB: a create or a stage move decided on the candidate and requisition as read, into a
 * plan (with its requisition part and audit entry) or a typed refusal.
 */
import { describe, expect, it } from 'vitest';

process.env.TABLE_NAME ??= 'unused';
const { ConflictError, NotFoundError, RequisitionNotOpenError, StaleStageError } = await import('../../lib/errors');
const { HeadcountReachedError, requisitionPart } = await import('../../lib/domain/requisition-rules');
const { decideCreate, decideMove, decideProfile } = await import('../../lib/domain/candidate-rules');
type RequisitionSeen = import('../../lib/domain/requisition-rules').RequisitionSeen;
type CandidateRead = import('../../lib/domain/candidate-rules').CandidateRead;
type Stage = import('../../lib/model').Stage;

const AT = '2026-11-27T12:00:00.000Z';
const req = (over: Partial<RequisitionSeen> = {}): RequisitionSeen => ({
  id: 'r1',
  title: 'Designer',
  status: 'open',
  version: 3,
  hires: 0,
  headcount: 2,
  ...over,
});
const cand = (stage: Stage, over: Partial<CandidateRead> = {}): CandidateRead => ({
  item: { id: 'c1', name: 'Ada', stage, req_id: 'r1' },
  id: 'c1',
  stage,
  reqId: 'r1',
  erased: false,
  ...over,
});
const record = (stage: Stage) => ({
  id: 'c1',
  name: 'Ada',
  stage,
  req_id: 'r1' as string | undefined,
  created_at: AT,
  updated_at: AT,
  stage_entered_at: AT,
});
const refusal = (d: object) => ('refuse' in d ? (d as { refuse: Error }).refuse : undefined);
const plan = <P>(d: { write: P } | object): P => {
  if (!('write' in d)) throw new Error(`expected a plan, got ${JSON.stringify(d)}`);
  return d.write;
};
const hireOf = (reqSeen?: RequisitionSeen) => decideMove({ candidate: cand('offer_accepted'), reqSeen }, { stage: 'placed', at: AT });

describe('the hire (a move into placed on a requisition)', () => {
  it('on an open requisition with room: a hire that neither fills it nor changes its status', () => {
    const p = plan(hireOf(req({ hires: 0, headcount: 2 })));
    expect(p.hire).toEqual({ id: 'r1', mustBeOpen: false, placing: true });
    expect(p.to).toBe('placed');
  });

  it('unread (the common case): assumed to count, the write condition checks it', () => {
    expect(plan(hireOf(undefined)).hire).toEqual({ id: 'r1', mustBeOpen: false, placing: true });
  });

  it('the last hire fills it: `filled` at the version read plus one', () => {
    expect(plan(hireOf(req({ hires: 1, headcount: 2, version: 3 }))).hire).toEqual({
      id: 'r1',
      mustBeOpen: false,
      placing: true,
      fills: { version: 3, title: 'Designer' },
    });
  });

  it('headcount reached: refused with 409 headcount_reached', () => {
    const err = refusal(hireOf(req({ hires: 2, headcount: 2 })));
    expect(err).toBeInstanceOf(HeadcountReachedError);
    expect((err as InstanceType<typeof ConflictError>).code).toBe('headcount_reached');
  });

  it('into a filled requisition (hires at headcount): refused', () => {
    expect(refusal(hireOf(req({ status: 'filled', hires: 2, headcount: 2 })))).toBeInstanceOf(HeadcountReachedError);
  });

  it('on hold with room: counts without filling (only an open requisition becomes filled)', () => {
    expect(plan(hireOf(req({ status: 'on_hold', hires: 1, headcount: 2 }))).hire?.fills).toBeUndefined();
  });

  it('no headcount (older requisitions): never full, never filled', () => {
    expect(plan(hireOf(req({ hires: 50, headcount: null }))).hire?.fills).toBeUndefined();
  });

  it("another requisition's read does not count: no refusal, no `filled` for the wrong one", () => {
    expect(plan(hireOf(req({ id: 'other', hires: 2, headcount: 2 }))).hire).toEqual({ id: 'r1', mustBeOpen: false, placing: true });
  });
});

describe('the stage move', () => {
  it('a stale from_stage is refused with the current stage', () => {
    const err = refusal(decideMove({ candidate: cand('interviewed') }, { stage: 'offer_sent', fromStage: 'applied', at: AT }));
    expect(err).toBeInstanceOf(StaleStageError);
    expect(err?.message).toContain('interviewed');
  });

  it('a missing candidate is a 404; a move to the current stage writes nothing', () => {
    expect(refusal(decideMove({ candidate: undefined }, { stage: 'placed', at: AT }))).toBeInstanceOf(NotFoundError);
    expect(decideMove({ candidate: cand('placed') }, { stage: 'placed', at: AT })).toEqual({ done: { before: cand('placed').item } });
  });

  it('out of placed, or into placed without a requisition: no hire', () => {
    expect(plan(decideMove({ candidate: cand('placed') }, { stage: 'rejected', at: AT })).hire).toBeUndefined();
    const free = cand('offer_accepted', { reqId: undefined });
    expect(plan(decideMove({ candidate: free, reqSeen: req({ hires: 2 }) }, { stage: 'placed', at: AT })).hire).toBeUndefined();
  });

  it('an erased candidate still moves; the plan carries it as read (the write holds the erasure)', () => {
    expect(plan(decideMove({ candidate: cand('applied', { erased: true }) }, { stage: 'interviewed', at: AT })).candidate.erased).toBe(
      true,
    );
  });

  it('the audit entry is built from what was read', () => {
    const base = { action: 'candidate.stage_changed', actor: { type: 'user' as const, id: 'u1' }, target: { type: 'candidate', id: 'c1' } };
    const p = plan(decideMove({ candidate: cand('applied') }, { stage: 'interviewed', at: AT, audit: base }));
    expect(p.audit).toEqual({ ...base, changes: [{ field: 'stage', before: 'applied', after: 'interviewed' }] });
  });
});

describe('the create', () => {
  it('straight into placed on a requisition is a hire: it may fill it, and is refused when full', () => {
    expect(plan(decideCreate(record('placed'), { reqSeen: req({ hires: 1 }) })).requisition?.fills).toEqual({
      version: 3,
      title: 'Designer',
    });
    expect(refusal(decideCreate(record('placed'), { reqSeen: req({ hires: 2 }) }))).toBeInstanceOf(HeadcountReachedError);
  });

  it('needs an open requisition; a requisition the write found gone is a 404; a taken id a 409', () => {
    expect(refusal(decideCreate(record('applied'), { reqSeen: req({ status: 'on_hold' }) }))).toBeInstanceOf(RequisitionNotOpenError);
    expect(refusal(decideCreate(record('applied'), { reqSeen: null }))).toBeInstanceOf(NotFoundError);
    expect(refusal(decideCreate(record('applied'), { idTaken: true }))?.message).toBe('candidate id already exists');
    expect(plan(decideCreate({ ...record('applied'), req_id: undefined }, {})).requisition).toBeUndefined();
  });
});

describe('the profile change', () => {
  it("moving a placed candidate onto a requisition is a hire there; an erased candidate's name cannot be set", () => {
    const placed = cand('placed', { reqId: undefined, item: { id: 'c1', name: 'Ada', stage: 'placed' } });
    const onto = plan(
      decideProfile({ candidate: placed, reqSeen: req({ id: 'r2', hires: 1 }) }, { requisition: { id: 'r2', title: 'B' } }, AT),
    );
    expect(onto.onto).toEqual({ id: 'r2', mustBeOpen: true, placing: true, fills: { version: 3, title: 'Designer' } });
    expect(onto.set).toEqual({ req_id: 'r2', req_title: 'B' });
    const erased = refusal(decideProfile({ candidate: cand('applied', { erased: true }) }, { name: 'New' }, AT));
    expect((erased as InstanceType<typeof ConflictError>).code).toBe('candidate_erased');
  });

  it('nothing to change writes nothing; leaving a requisition removes it', () => {
    expect('done' in decideProfile({ candidate: cand('applied') }, { name: 'Ada' }, AT)).toBe(true);
    expect(plan(decideProfile({ candidate: cand('applied') }, { requisition: null }, AT)).remove).toEqual(['req_id', 'req_title']);
  });
});

describe('requisitionPart', () => {
  it('only a read of its own requisition decides', () => {
    expect(requisitionPart('r1', req({ id: 'r2', status: 'closed' }), { mustBeOpen: true })).toEqual({
      part: { id: 'r1', mustBeOpen: true, placing: false },
    });
  });
});
