/**
 * Merging two people who are the same human, as pure rules: what the merge's committing
 * transaction holds, and when it is refused. The store reads (lib/store/person-merge.ts) and
 * lib/domain/person-merge.ts runs the read-decide-write loop (retry.ts).
 *
 * The merge is two steps. The first is ONE transaction that decides it: the from-person's
 * candidates re-parented (ids unchanged, each showing the target's personal fields, their search
 * entries with them), their duplicate guards moved, the from-person's email claims pointed at the
 * target, the counts, the from-person deleted, a merge record put in the target's partition and
 * the audit record. The second moves what else the from-person's partition holds (notes with
 * their history, activity, files) in bounded transactions, each one idempotent; the merge record
 * stays `pending` until they are all moved, and a retry of the same merge finishes them.
 */
import { PERSON_FIELDS } from '../entities/person';
import { ConflictError, NotFoundError } from '../errors';
import { MAX_CANDIDATES_PER_PERSON } from '../model';
import { candidateTokens } from '../store/search';
import { MAX_TRANSACT_ACTIONS } from '../store/tx';
import { duplicateCandidate, personLimit } from './people-rules';

type Item = Record<string, unknown>;

/** What a merge decides on, read consistently. */
export interface MergeState {
  target: Item | undefined;
  from: Item | undefined;
  /** The merge record of this pair in the target's partition (a merge decided before). */
  record: Item | undefined;
  /** The from-person's duplicate guards, and the candidates they name. */
  fromGuards: MergeGuard[];
  fromCandidates: Item[];
  /** The target's candidate that refused a moved guard (the same person twice on one requisition). */
  duplicateOf?: { candidateId: string; onRequisition: boolean };
}

/** A duplicate guard of the from-person: on their item (`guards`), or older data's item (its key). */
export interface MergeGuard {
  /** The requisition's id, or `none`. */
  entry: string;
  candidateId: string;
  key?: { PK: unknown; SK: unknown };
}

/** The committing transaction's content. */
export interface MergePlan {
  targetId: string;
  fromId: string;
  target: Item;
  from: Item;
  guards: MergeGuard[];
  /** Each moved candidate as read, and as the merge leaves it (the target's personal fields). */
  candidates: { before: Item; after: Item }[];
  /** The target's claims afterwards: theirs and the from-person's. */
  claims: string[];
  /** The from-person's claims, to point at the target. */
  fromClaims: string[];
}

export type MergeDecision = { resume: true } | { refuse: ConflictError | NotFoundError } | { plan: MergePlan };

export const tooLargeToMerge = () =>
  new ConflictError('these people have too many candidates to merge in one write; erase or merge fewer of them first', {
    code: 'person_limit',
  });

const claimsOf = (p: Item) => (Array.isArray(p.claims) ? (p.claims as string[]) : []);

/** A candidate as the merge leaves it: the target's person fields (absent ones removed), and the target as its person. */
export function reparented(c: Item, target: Item, targetId: string, at: string): Item {
  const after: Item = { ...c, person_id: targetId, updated_at: at };
  for (const f of PERSON_FIELDS) {
    if (target[f] === undefined || target[f] === null) delete after[f];
    else after[f] = target[f];
  }
  return after;
}

/**
 * Decide a merge of `fromId` into `targetId` at `at`. A from-person already gone whose merge
 * record is in the target's partition is a merge decided before: the caller finishes its moves.
 * Another workspace's id reads as none, so it is the same 404 as an unknown one.
 */
export function decideMerge(targetId: string, fromId: string, s: MergeState, at: string): MergeDecision {
  if (!s.target) return { refuse: new NotFoundError('person') };
  if (!s.from) return s.record ? { resume: true } : { refuse: new NotFoundError('person', { field: 'from' }) };
  if (s.duplicateOf) return { refuse: duplicateCandidate(s.duplicateOf.candidateId, s.duplicateOf.onRequisition) };
  const live = s.fromCandidates.filter((c) => !c.erased_at);
  if (Number(s.target.candidate_count ?? 0) + live.length > MAX_CANDIDATES_PER_PERSON) return { refuse: personLimit() };
  const candidates = live.map((before) => ({ before, after: reparented(before, s.target!, targetId, at) }));
  const fromClaims = claimsOf(s.from);
  const claims = [...new Set([...claimsOf(s.target), ...fromClaims])];
  // Each candidate: its update, its search entries put and those it loses deleted; each guard in
  // (on the target's item, or a guard item for older data) and out (an older guard item);
  // each claim; the two people, the merge record and the audit record.
  const guardItemsIn = s.target.guards === undefined;
  const actions =
    candidates.reduce((n, { before, after }) => {
      const kept = new Set(candidateTokens(after as { name: string }));
      return n + 1 + kept.size + candidateTokens(before as { name: string }).filter((t) => !kept.has(t)).length;
    }, 0) +
    s.fromGuards.reduce((n, g) => n + (guardItemsIn ? 1 : 0) + (g.key ? 1 : 0), 0) +
    fromClaims.length +
    5;
  if (actions > MAX_TRANSACT_ACTIONS) return { refuse: tooLargeToMerge() };
  return { plan: { targetId, fromId, target: s.target, from: s.from, guards: s.fromGuards, candidates, claims, fromClaims } };
}
