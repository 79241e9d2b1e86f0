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
import { candidateTokens } from '../store/search';
import { MAX_TRANSACT_ACTIONS } from '../store/tx';

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
  /** The candidate the person already is on the requisition (the guard the refusal saw). */
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
      /** The person is older data whose guards are separate items (as last seen; none seen: the person item holds them). */
      guardItems: boolean;
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
    person: { kind: 'join', personId: state.owner, expect, guardItems: seen !== undefined && seen.guards === undefined },
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

/** A change of the person's fields: the person and their other candidates as read, and what changes. */
export interface PersonEdit {
  personId: string;
  person: Item;
  others: Item[];
  set: Item;
  remove: string[];
}

export const emailTaken = (personId: string) =>
  new ConflictError(`this email belongs to another person (${personId}); merge the two people instead`, {
    code: 'email_taken',
    field: 'email',
    existingId: personId,
  });

export const tooLargeToEdit = () =>
  new ConflictError('this person has too many candidates to change their details in one write; merge or erase some of them first', {
    code: 'person_limit',
  });

/**
 * A profile change of a person's candidate that sets or clears a person field changes the person
 * and every other candidate of theirs with it (the caller writes them in one transaction): the
 * edit, or none when the change touches no person field or the person is gone. `taken` is the
 * person a refused claim of the new email named.
 */
export function decidePersonEdit(
  personId: string | undefined,
  change: { set: Item; remove: string[] },
  read: { person: Item | undefined; others: Item[] } | undefined,
  taken?: string,
): { refuse: ConflictError } | { edit?: PersonEdit } {
  if (taken && taken !== personId) return { refuse: emailTaken(taken) };
  const set = Object.fromEntries(Object.entries(change.set).filter(([f]) => (PERSON_FIELDS as readonly string[]).includes(f)));
  const remove = change.remove.filter((f) => (PERSON_FIELDS as readonly string[]).includes(f));
  if (!personId || !read?.person || (!Object.keys(set).length && !remove.length)) return {};
  const others = read.others.filter((c) => !c.erased_at);
  // Each candidate: its update, its search entries put, those of tokens it loses deleted; the
  // edited one's, the person's, the claims', the counters' and the audit's beside them.
  const actionsOf = (c: Item) => {
    const after: Item = { ...c, ...set };
    for (const f of remove) delete after[f];
    const kept = new Set(candidateTokens(after as { name: string }));
    return 1 + kept.size + candidateTokens(c as { name: string }).filter((t) => !kept.has(t)).length;
  };
  const actions = [...others, read.person].reduce((n, c) => n + actionsOf(c), 0) + 8;
  if (actions > MAX_TRANSACT_ACTIONS) return { refuse: tooLargeToEdit() };
  return { edit: { personId, person: read.person, others, set, remove } };
}
