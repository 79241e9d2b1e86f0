/**
 * Candidate write rules as pure functions: a create, a stage move (hires included) and a profile
 * change, each decided on the candidate and requisition as read, returning the plan the store
 * writes (lib/store/candidate-writes.ts) or a refusal. candidate-writes.ts runs them in the
 * read-decide-write loop (retry.ts).
 */
import { ConflictError, NotFoundError, StaleStageError } from '../errors';
import type { Stage } from '../model';
import { candidate } from '../entities/candidate';
import { auditChanges } from '../entity';
import type { AuditChange, AuditEntry } from '../store/audit';
import type { CandidateRecord } from '../store/candidates';
import type { ActorRef } from '../store/stage-history';
import { patchDiff } from '../store/update';
import { requisitionPart, type RequisitionPart, type RequisitionSeen } from './requisition-rules';
import type { AuditBase } from './principal';
import type { Rejection } from './rejection-rules';
import { decidePersonEdit, duplicateCandidate, type PersonEdit, type PersonPart } from './people-rules';
import type { Decision } from './retry';

type Item = Record<string, unknown>;

/** A candidate as a write's rule reads it (lib/store/candidates.ts candidateRead). */
export interface CandidateRead {
  /** The item as read: the write's conditions hold it to this, and its copies are made from it. */
  item: Item;
  id: string;
  stage: Stage;
  reqId: string | undefined;
  erased: boolean;
}

/** The profile fields PATCH may change (the declaration's personal ones in its PATCH body); `null` removes an optional one. */
export const PROFILE_FIELDS = candidate.personal.filter((f) => (candidate.updateFields as readonly string[]).includes(f)) as Exclude<
  keyof ProfilePatch,
  'requisition'
>[];
const ERASED_FIELDS = `${PROFILE_FIELDS.slice(0, -1).join(', ')} and ${PROFILE_FIELDS.at(-1)}`;

export interface CreateState {
  /** The requisition as read, or as a refused condition saw it (null: it is not there). */
  reqSeen?: RequisitionSeen | null;
  /** A refused put: the id is someone else's already. */
  idTaken?: boolean;
}

export interface CreatePlan {
  record: CandidateRecord;
  requisition?: RequisitionPart;
  audit?: AuditEntry;
  /** The person the candidate is (people-rules.ts decidePerson): none for a write that predates people. */
  person?: PersonPart;
  /** What an application's screening adds to the create (lib/domain/application-run.ts). */
  screening?: ScreeningParts;
}

/** A screening's records and its due rejection, written with the candidate it screened. */
export interface ScreeningParts {
  audits: AuditEntry[];
  /** move_to_ai_screened: the history item of the move out of `applied` (the candidate is made in ai_screened). */
  history?: Record<string, unknown>;
  /** reject_after_delay: the due item's Put (lib/store/screening.ts screeningDuePut). */
  due?: Record<string, unknown>;
}

/**
 * A create: on a requisition it must be open, and one created straight into `placed` counts as
 * a hire there (it may fill the requisition, never exceed its headcount).
 */
export function decideCreate(record: CandidateRecord, state: CreateState, audit?: AuditEntry): Decision<CreatePlan, void> {
  if (state.idTaken) return { refuse: new ConflictError('candidate id already exists') };
  if (!record.req_id) return { write: { record, audit } };
  const req = requisitionPart(record.req_id, state.reqSeen, { mustBeOpen: true, placing: record.stage === 'placed' });
  return 'refuse' in req ? req : { write: { record, requisition: req.part, audit } };
}

export interface MoveState {
  candidate: CandidateRead | undefined;
  /** The requisition as read for a move into `placed`, or as a refused hire condition saw it. */
  reqSeen?: RequisitionSeen;
  /** A move into `placed`: what its placement takes from the accepted offer and the requisition. */
  placementTerms?: Item;
  /** A move out of `placed`: the candidate's placement, when it is active (the move cancels it). */
  activePlacement?: string;
}

export interface MoveRequest {
  stage: Stage;
  /** The stage the caller believes the candidate is in: any other is a stale move. */
  fromStage?: Stage;
  at: string;
  actor?: ActorRef;
  audit?: AuditBase;
  /** A move into `rejected`: the reason chosen (decideRejection), with its note. */
  rejection?: Rejection;
  /** A move made by an offer sent or accepted: the offer it follows (no personal data). */
  offer?: OfferRef;
  /** More audit changes, no personal values (a screening's rule words). */
  auditChanges?: AuditChange[];
}

/** The offer a stage move follows, kept on the candidate for its offer events. */
export interface OfferRef {
  offer_id: string;
  offer_version: number;
  start_date: string;
}

export interface MovePlan {
  candidate: CandidateRead;
  to: Stage;
  at: string;
  actor: ActorRef | null;
  /** A move into `placed` on a requisition: a hire there. */
  hire?: RequisitionPart;
  audit?: AuditEntry;
  /** Kept on the candidate and its history item; none clears the one a candidate had. */
  rejection?: Rejection;
  /** Kept on the candidate (`offer_ref`); none clears the one a candidate had. */
  offer?: OfferRef;
  /** A move into `placed`: its placement's terms (lib/store/placement-context.ts). */
  placementTerms?: Item;
  /** A move into `placed`: its placement's id, when the caller answers with the placement. */
  placementId?: string;
  /** A move out of `placed`: the active placement it cancels (the hire stops counting). */
  cancelsPlacement?: string;
}

/**
 * A stage move: any stage to any stage; to the current stage it is `done` with nothing written.
 * With `fromStage`, a candidate in another stage is a StaleStageError. A move into `placed` on a
 * requisition is a hire: refused when the requisition has all its hires, and the one that fills
 * it sets it `filled`. A move into `placed` creates a placement (the store writes it).
 */
export function decideMove(state: MoveState, req: MoveRequest): Decision<MovePlan, { before: Item }> {
  const c = state.candidate;
  if (!c) return { refuse: new NotFoundError('candidate') };
  if (req.fromStage && c.stage !== req.fromStage) return { refuse: new StaleStageError(c.stage, req.fromStage) };
  if (c.stage === req.stage) return { done: { before: c.item } };
  let hire: RequisitionPart | undefined;
  if (c.reqId && req.stage === 'placed') {
    const decided = requisitionPart(c.reqId, state.reqSeen, { placing: true });
    if ('refuse' in decided) return decided;
    hire = decided.part;
  }
  const rejection = req.stage === 'rejected' ? req.rejection : undefined;
  if (c.erased && rejection?.note !== undefined) {
    return {
      refuse: new ConflictError('this candidate was erased; a rejection_note cannot be kept', {
        code: 'candidate_erased',
        field: 'rejection_note',
      }),
    };
  }
  // The reason by id only: the note is personal and never in an audit value.
  const changes = [
    { field: 'stage', before: c.stage, after: req.stage },
    ...(rejection ? [{ field: 'rejection_reason_id', after: rejection.reason_id }] : []),
    ...(req.auditChanges ?? []),
  ];
  const audit = req.audit && { ...req.audit, changes };
  return {
    write: {
      candidate: c,
      to: req.stage,
      at: req.at,
      actor: req.actor ?? null,
      hire,
      audit,
      ...(rejection && { rejection }),
      ...(req.offer && { offer: req.offer }),
      ...(req.stage === 'placed' && state.placementTerms && { placementTerms: state.placementTerms }),
      ...(req.stage !== 'placed' && state.activePlacement && { cancelsPlacement: state.activePlacement }),
    },
  };
}

/** A profile change; a requisition given must exist (the caller read it: its title is copied). */
export interface ProfilePatch {
  name?: string;
  email?: string | null;
  phone?: string | null;
  resume_url?: string | null;
  /** A new requisition (its title is denormalized onto the candidate), or null for none. */
  requisition?: { id: string; title: string } | null;
}

export interface ProfileState {
  candidate: CandidateRead | undefined;
  reqSeen?: RequisitionSeen | null;
  /** The candidate's person and their other candidates, read when the change touches a person field. */
  person?: { person: Item | undefined; others: Item[] };
  /** The person a refused claim of the new email named. */
  emailTakenBy?: string;
  /** The candidate the person already is on the new requisition (its guard's refusal). */
  duplicateOf?: string;
  /** The old requisition's guard names another candidate (older data): it stays. */
  keepOldGuard?: boolean;
  /** The person's guards are separate items (older data), as their refused condition saw them. */
  guardItems?: boolean;
  /** The person is gone (erased): there is no guard to move. */
  personGone?: boolean;
}

export interface ProfilePlan {
  candidate: CandidateRead;
  /** Fields set (profile fields, and req_id/req_title when the requisition changes) and removed. */
  set: Item;
  remove: string[];
  /** The requisition changes: from `candidate.reqId` to `onto` (or to none). */
  moves: boolean;
  onto?: RequisitionPart;
  at: string;
  audit?: AuditEntry;
  /** The person's part: their item, the email's claim, their other candidates. */
  person?: PersonEdit;
  /** A person's candidate changing requisition moves its duplicate guard. */
  guard?: GuardMove;
}

export interface GuardMove {
  personId: string;
  from: string | undefined;
  to: string | undefined;
  dropOld: boolean;
  /** The person is older data whose guards are separate items (lib/store/people.ts). */
  guardItems: boolean;
}

/**
 * A profile change: nothing to change is `done` with nothing written; an erased candidate's
 * personal fields cannot be set again. Moving onto another requisition needs it open, and a
 * placed candidate is a hire there too.
 */
export function decideProfile(
  state: ProfileState,
  patch: ProfilePatch,
  at: string,
  auditBase?: AuditBase,
): Decision<ProfilePlan, { before: Item }> {
  const c = state.candidate;
  if (!c) return { refuse: new NotFoundError('candidate') };
  if (c.erased && PROFILE_FIELDS.some((f) => patch[f] !== undefined)) {
    return {
      refuse: new ConflictError(`this candidate was erased; its ${ERASED_FIELDS} cannot be set again`, {
        code: 'candidate_erased',
      }),
    };
  }
  const { set, remove } = patchDiff(c.item, patch, PROFILE_FIELDS);
  const newReq = patch.requisition === undefined ? c.reqId : patch.requisition?.id;
  const moves = newReq !== c.reqId;
  const personId = typeof c.item.person_id === 'string' ? c.item.person_id : undefined;
  if (moves && personId && state.duplicateOf) return { refuse: duplicateCandidate(state.duplicateOf, newReq !== undefined) };
  if (moves) {
    if (patch.requisition) Object.assign(set, { req_id: patch.requisition.id, req_title: patch.requisition.title });
    else remove.push('req_id', 'req_title');
  }
  // The form of the person's guards: as read with the person, else as a refusal last saw it.
  const guardItems = state.person?.person ? state.person.person.guards === undefined : Boolean(state.guardItems);
  const guard =
    moves && personId && !state.personGone
      ? { personId, from: c.reqId, to: newReq ?? undefined, dropOld: !state.keepOldGuard, guardItems }
      : undefined;
  if (!Object.keys(set).length && !remove.length) return { done: { before: c.item } };
  let onto: RequisitionPart | undefined;
  if (moves && newReq) {
    const decided = requisitionPart(newReq, state.reqSeen, { mustBeOpen: true, placing: c.stage === 'placed' });
    if ('refuse' in decided) return decided;
    onto = decided.part;
  }
  const after: Item = { ...c.item, ...set };
  for (const f of remove) delete after[f];
  const audit = auditBase && { ...auditBase, changes: auditChanges(candidate, c.item, after, candidate.updateFields) };
  const person = decidePersonEdit(personId, { set, remove }, state.person, state.emailTakenBy);
  if ('refuse' in person) return person;
  return {
    write: { candidate: c, set, remove, moves, onto, at, audit, ...(person.edit && { person: person.edit }), ...(guard && { guard }) },
  };
}
