/**
 * People rules as pure functions: which person a new candidate belongs to (match or create, by
 * the email's claim), the duplicate rule, and the cap on a person's candidates. They read no
 * table: the store reads the claim and hands back what a refused condition saw
 * (lib/domain/candidate-writes.ts runs them in the read-decide-write loop, retry.ts).
 */
import { ConflictError } from '../errors';
import { PERSON_FIELDS } from '../entities/person';
import { MAX_CANDIDATES_PER_PERSON, type RetentionRule } from '../model';
import type { CandidateRecord } from '../store/candidates';

type Item = Record<string, unknown>;

/** The same person again on the same requisition (or again without one). */
export const duplicateCandidate = (existingId: string, onRequisition: boolean) =>
  new ConflictError(
    onRequisition
      ? `this person is already a candidate on this requisition (${existingId}); move or update that candidate instead`
      : `this person is already a candidate without a requisition (${existingId}); add them to a requisition instead`,
    { code: 'duplicate_candidate', field: onRequisition ? 'req_id' : 'email', existingId },
  );

export const personLimit = () =>
  new ConflictError(`a person may have at most ${MAX_CANDIDATES_PER_PERSON} candidates`, { code: 'person_limit' });

/** What the create's person match decides on. */
export interface MatchState {
  /**
   * The person the email's claim names (read before the first attempt, or as a refused condition
   * saw it); null: the email belongs to no one; undefined: the create gives no email.
   */
  owner?: string | null;
  /** That person's item as their refused condition saw it: their fields and candidate count. */
  personSeen?: Item;
  /** The candidate the person already is on the requisition (the guard's refusal). */
  duplicateOf?: string;
}

/** The person's part of a create: a new person, or the candidate joining one. */
export type PersonPart =
  | { kind: 'new'; personId: string; claim: boolean }
  | {
      kind: 'join';
      personId: string;
      /** The fields the person must still have: the new candidate copies them. */
      expect: Item;
    };

/** The person fields of a record or item, absent ones as undefined. */
export const personFields = (from: Item): Item => Object.fromEntries(PERSON_FIELDS.map((f) => [f, from[f] ?? undefined]));

/**
 * Match or create: an email someone's claim names makes the candidate theirs, and the candidate
 * then shows that person's fields (a person's details change through a PATCH of any of their
 * candidates, which changes them all); any other create makes a new person. Decided first on the
 * request's own fields, which the person's condition checks; when they differ, the condition's
 * refusal hands the person back and this decides again on what it saw.
 */
export function decidePerson(
  record: CandidateRecord,
  state: MatchState,
  newPersonId: string,
): { refuse: ConflictError } | { record: CandidateRecord; person: PersonPart } {
  if (state.duplicateOf) return { refuse: duplicateCandidate(state.duplicateOf, record.req_id !== undefined) };
  if (!state.owner) {
    return { record: { ...record, person_id: newPersonId }, person: { kind: 'new', personId: newPersonId, claim: Boolean(record.email) } };
  }
  const seen = state.personSeen;
  if (seen && Number(seen.candidate_count ?? 0) >= MAX_CANDIDATES_PER_PERSON) return { refuse: personLimit() };
  const expect = personFields(seen ?? (record as unknown as Item));
  const copied = { ...record } as unknown as Item;
  for (const [f, v] of Object.entries(expect)) {
    if (v === undefined) delete copied[f];
    else copied[f] = v;
  }
  return {
    record: { ...(copied as unknown as CandidateRecord), person_id: state.owner },
    person: { kind: 'join', personId: state.owner, expect },
  };
}

/** A candidate of a person as retention judges it. */
export interface JudgedCandidate {
  id: string;
  stage: string;
  updated_at: string;
}

/**
 * Retention judges a person by their most recent candidate: erasing one candidate erases the
 * person and all of theirs, so a rule erases them only when the candidate changed last matches it
 * too (rejected and unchanged since the cutoff, or unchanged since the cutoff). A person whose
 * candidates the index does not show yet is kept until a later run.
 */
export function personExpired(candidates: readonly JudgedCandidate[], rule: RetentionRule, cutoff: string): boolean {
  const latest = candidates.reduce<JudgedCandidate | undefined>((a, c) => (!a || c.updated_at > a.updated_at ? c : a), undefined);
  if (!latest || latest.updated_at >= cutoff) return false;
  return rule === 'inactive_days' || latest.stage === 'rejected';
}
