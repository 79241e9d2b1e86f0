/**
 * Candidate writes: each rule of candidate-rules.ts run in the read-decide-write loop (retry.ts)
 * over the store's named parts (lib/store/candidate-parts.ts). A refusal decides again on the
 * item the refused condition saw, so a lost race costs no extra read.
 */
import type { Stage } from '../model';
import { candidateRead, getCandidate, type CandidateRecord } from '../store/candidates';
import { writeMove, writeNewCandidate, writeProfile } from '../store/candidate-parts';
import { insertBatch, transactionGroups, type NewCandidate } from '../store/candidate-batch';
import { readPlacementContext } from '../store/placement-context';
import { getPlacementItem } from '../store/placements';
import { requisitionSeen } from '../store/requisitions';
import type { ActorRef } from '../store/stage-history';
import type { AuditEntry } from '../store/audit';
import { newId, nowIso } from '../ids';
import { claimOwner, guardEntry, guardsOf } from '../store/people';
import { readPerson } from '../store/person-parts';
import { patchDiff } from '../store/update';
import { decidePerson, type MatchState } from './people-rules';
import {
  PROFILE_FIELDS,
  type CreatePlan,
  decideCreate,
  decideMove,
  decideProfile,
  type CreateState,
  type MoveRequest,
  type MoveState,
  type OfferRef,
  type ProfilePatch,
  type ProfileState,
  type ScreeningParts,
} from './candidate-rules';
import type { AuditBase } from './principal';
import type { Rejection } from './rejection-rules';
import { decideAndWrite } from './retry';

type Item = Record<string, unknown>;

/**
 * Insert a candidate and bump the counters in the same transaction. `reqSeen` is its requisition
 * as the caller read it (it must be open); one created straight into `placed` counts as a hire.
 */
export function insertCandidate(tenantId: string, record: CandidateRecord, reqSeen?: Item, audit?: AuditEntry): Promise<void> {
  return decideAndWrite<CreateState, Parameters<typeof writeNewCandidate>[1], void, string>({
    state: { reqSeen: requisitionSeen(reqSeen) },
    decide: (state) => decideCreate(record, state, audit),
    write: async (plan) => ({ outcome: await writeNewCandidate(tenantId, plan) }),
    again: (state, lost) => {
      if ('conflict' in lost) return state;
      if ('candidate' in lost.all) return { ...state, idTaken: true };
      // The requisition is gone, closed, full or just filled: decide again on what was seen.
      if ('requisition' in lost.all) return { reqSeen: requisitionSeen(lost.all.requisition) ?? null };
      if (lost.refused === 'stats') return state;
      throw new Error(`candidate create refused by its ${lost.refused} part`);
    },
    busy: 'too many concurrent writes; try again',
  });
}

/**
 * Insert a candidate as one person's (match or create, people-rules.ts): `owner` is the person
 * the email's claim named when read (null: no one; undefined: no email). A lost race decides
 * again on what the refused condition saw: a claim someone put first makes the candidate theirs,
 * a person whose fields differ lends them to the candidate, a guard names the duplicate. Answers
 * the candidate as written (with the person's fields).
 */
export async function insertPersonCandidate(
  tenantId: string,
  record: CandidateRecord,
  owner: string | null | undefined,
  reqSeen?: Item,
  audit?: AuditEntry,
  screening?: ScreeningParts,
): Promise<CandidateRecord> {
  const newPersonId = newId();
  let written = record;
  await decideAndWrite<CreateState & MatchState, CreatePlan, void, string>({
    state: { reqSeen: requisitionSeen(reqSeen), owner },
    decide: (state) => {
      const matched = decidePerson(record, state, newPersonId);
      if ('refuse' in matched) return matched;
      const decided = decideCreate(matched.record, state, audit);
      return 'write' in decided ? { write: { ...decided.write, person: matched.person, ...(screening && { screening }) } } : decided;
    },
    write: async (plan) => {
      written = plan.record;
      return { outcome: await writeNewCandidate(tenantId, plan) };
    },
    again: async (state, lost) => {
      if ('conflict' in lost) return state;
      const all = lost.all as Record<string, Item | undefined>;
      if ('guard' in all) {
        const existing = all.guard?.candidate_id;
        if (typeof existing === 'string') return { ...state, duplicateOf: existing };
        return state;
      }
      // Someone claimed the email first, or the claim moved (a merge) or went (an erasure).
      if ('claim' in all) return { ...state, owner: (all.claim?.person_id as string | undefined) ?? null, personSeen: undefined };
      if ('person' in all) {
        // The person is already a candidate on the requisition: their guards name it.
        const holder = guardsOf(all.person)?.[guardEntry(record.req_id)];
        if (holder) return { ...state, duplicateOf: holder };
        // The person's fields differ from the request's (the candidate copies theirs), they are
        // full or gone, or their guards are in another form than assumed.
        if (all.person) return { ...state, personSeen: all.person };
        return { ...state, owner: record.email ? await claimOwner(tenantId, record.email) : null, personSeen: undefined };
      }
      if ('candidate' in all) return { ...state, idTaken: true };
      if ('requisition' in all) return { ...state, reqSeen: requisitionSeen(all.requisition) ?? null };
      if (lost.refused === 'stats') return state;
      throw new Error(`candidate create refused by its ${lost.refused} part`);
    },
    busy: 'too many concurrent writes; try again',
  });
  return written;
}

/**
 * Move a candidate to `stage`; `before` is the candidate as read, `after` as written (none when
 * it was already there). The write is conditioned on the stage it was read in, so a concurrent
 * move makes it decide again on what the winner left and the counters never drift.
 */
export function moveCandidate(
  tenantId: string,
  id: string,
  stage: Stage,
  now: () => string = nowIso,
  opts: {
    actor?: ActorRef;
    fromStage?: Stage;
    audit?: AuditBase;
    rejection?: Rejection;
    offer?: OfferRef;
    auditChanges?: MoveRequest['auditChanges'];
  } = {},
): Promise<{ before: Item; after?: Item }> {
  // A move into `placed` also reads what its placement records (the requisition and the accepted
  // offer); a move out of it, the placement it cancels.
  const read = async (item?: Item): Promise<MoveState> => {
    item ??= await getCandidate(tenantId, id);
    if (stage !== 'placed') {
      const pid = item?.stage === 'placed' && typeof item.placement_id === 'string' ? item.placement_id : undefined;
      const placement = pid ? await getPlacementItem(tenantId, pid) : undefined;
      return { candidate: candidateRead(item), ...(placement?.status === 'active' && { activePlacement: pid }) };
    }
    if (!item || item.stage === 'placed') return { candidate: candidateRead(item) };
    const { requisition, terms } = await readPlacementContext(tenantId, item);
    return { candidate: candidateRead(item), reqSeen: requisitionSeen(requisition), placementTerms: terms };
  };
  return decideAndWrite<MoveState, Parameters<typeof writeMove>[1], { before: Item; after?: Item }, string>({
    state: read(),
    decide: (state) =>
      decideMove(state, {
        stage,
        fromStage: opts.fromStage,
        at: now(),
        actor: opts.actor,
        audit: opts.audit,
        rejection: opts.rejection,
        offer: opts.offer,
        auditChanges: opts.auditChanges,
      }),
    write: async (plan) => {
      const { outcome, after } = await writeMove(tenantId, plan);
      return { outcome, result: { before: plan.candidate.item, after } };
    },
    again: async (state, lost) => {
      if ('conflict' in lost || lost.refused === 'stats') return state;
      // Someone moved it first: decide again from what they left (or deleted). Their change may
      // have put it on another requisition, so the one seen before no longer counts.
      if (lost.refused === 'candidate') return read(lost.seen);
      // The hire would fill the requisition, or exceed it, or someone filled it first.
      if (lost.refused === 'requisition') return { ...state, reqSeen: requisitionSeen(lost.seen) };
      // Its placement was cancelled meanwhile.
      if (lost.refused === 'unplace') return read();
      throw new Error(`stage move refused by its ${lost.refused} part`);
    },
    busy: 'candidate is being changed concurrently; try again',
  });
}

/**
 * Change a candidate's profile; `reqSeen` is the new requisition as the caller read it. Returns
 * undefined `after` when nothing would change (no write, so no event).
 */
export function updateCandidateProfile(
  tenantId: string,
  id: string,
  patch: ProfilePatch,
  opts: { reqSeen?: Item; audit?: AuditBase; now?: () => string } = {},
): Promise<{ before: Item; after?: Item }> {
  const now = opts.now ?? nowIso;
  // A change of a person field changes the person and their other candidates too: read with the candidate.
  const touchesPerson = PROFILE_FIELDS.some((f) => patch[f] !== undefined);
  const read = async (): Promise<ProfileState> => {
    const candidate = candidateRead(await getCandidate(tenantId, id));
    const personId = candidate?.item.person_id;
    // Only a real change of a person field reads the person (a change to nothing stays one read).
    const changes = touchesPerson && candidate ? patchDiff(candidate.item, patch, PROFILE_FIELDS) : undefined;
    const real = changes && (Object.keys(changes.set).length > 0 || changes.remove.length > 0);
    const person = real && typeof personId === 'string' ? await readPerson(tenantId, personId, id) : undefined;
    return { candidate, reqSeen: requisitionSeen(opts.reqSeen), person };
  };
  return decideAndWrite<ProfileState, Parameters<typeof writeProfile>[1], { before: Item; after?: Item }, string>({
    state: read(),
    decide: (state) => decideProfile(state, patch, now(), opts.audit),
    write: async (plan) => {
      const { outcome, after } = await writeProfile(tenantId, plan);
      return { outcome, result: { before: plan.candidate.item, after } };
    },
    again: async (state, lost) => {
      if ('conflict' in lost) return state;
      const all = lost.all as Record<string, Item | undefined>;
      // The new email is another person's: decide again on whose.
      if ('claimIn' in all && typeof all.claimIn?.person_id === 'string') return { ...state, emailTakenBy: all.claimIn.person_id };
      // The person is already a candidate on the new requisition; or the old one's guard is another candidate's.
      if ('guardIn' in all && typeof all.guardIn?.candidate_id === 'string') return { ...state, duplicateOf: all.guardIn.candidate_id };
      if ('guardOut' in all) return { ...state, keepOldGuard: true };
      // The same, on the person item: its guards as the condition saw them.
      const personSeen = 'guards' in all ? all.guards : all.person;
      const guards = guardsOf(personSeen);
      const from = state.candidate?.reqId;
      const to = patch.requisition === undefined ? from : patch.requisition?.id;
      if (guards && to !== from) {
        const holder = guards[guardEntry(to)];
        if (holder && holder !== id) return { ...state, duplicateOf: holder };
        const old = guards[guardEntry(from)];
        if (old && old !== id && !state.keepOldGuard) return { ...state, keepOldGuard: true };
      }
      // The person is gone, or their guards are in another form than assumed (a backfill folded them meanwhile).
      if ('guards' in all) return personSeen ? { ...state, guardItems: !guards } : { ...state, personGone: true };
      // The person, or one of their candidates, changed meanwhile: read them all again.
      if ('person' in all || 'others' in all || 'claimOut' in all) return { ...(await read()), reqSeen: state.reqSeen };
      // Gone, no longer open, full or just filled: decide again on what the condition saw.
      if ('requisition' in lost.all) return { ...state, reqSeen: requisitionSeen(lost.all.requisition) ?? null };
      if (lost.refused === 'candidate') {
        const candidate = candidateRead(lost.seen ?? (await getCandidate(tenantId, id)));
        return touchesPerson ? { ...(await read()), reqSeen: state.reqSeen } : { ...state, candidate };
      }
      throw new Error(`profile change refused by its ${lost.refused} part`);
    },
    busy: 'candidate is being changed concurrently; try again',
  });
}

/** Each row's fate in a create of many: created now, found already there (its id taken), or refused as the single create refuses it. */
export type InsertResult = { kind: 'created' } | { kind: 'exists' } | { kind: 'error'; error: unknown };

/**
 * Create many candidates, as many per transaction as the store's groups hold
 * (transactionGroups), each exactly as insertCandidate creates one; a hire on a requisition, and
 * any row a batch could not settle, is decided alone. Yields each transaction's rows with their
 * results, in order, as they are written.
 */
export async function* insertCandidateGroups(
  tenantId: string,
  entries: NewCandidate[],
): AsyncGenerator<{ rows: number[]; results: Map<number, InsertResult> }> {
  const alone = async (i: number): Promise<InsertResult> => {
    const { record, reqSeen, audit } = entries[i]!;
    try {
      // A row given a person is matched as POST /candidates matches (its email's claim read now).
      if (record.person_id) {
        const owner = record.email !== undefined ? await claimOwner(tenantId, record.email) : undefined;
        await insertPersonCandidate(tenantId, record, owner, reqSeen, audit);
      } else await insertCandidate(tenantId, record, reqSeen, audit);
      return { kind: 'created' };
    } catch (error) {
      return { kind: 'error', error };
    }
  };
  for (const group of transactionGroups(entries)) {
    if ('alone' in group) {
      yield { rows: [group.alone], results: new Map([[group.alone, await alone(group.alone)]]) };
      continue;
    }
    const written = await insertBatch(tenantId, entries, group.batch);
    const results = new Map<number, InsertResult>();
    for (const i of group.batch) {
      const r = written.get(i)!;
      results.set(i, r.kind === 'alone' ? await alone(i) : r);
    }
    yield { rows: group.batch, results };
  }
}

/** insertCandidateGroups, all at once: each row's result, in the entries' order. */
export async function insertCandidates(tenantId: string, entries: NewCandidate[]): Promise<InsertResult[]> {
  const out = new Array<InsertResult>(entries.length);
  for await (const { results } of insertCandidateGroups(tenantId, entries)) for (const [i, r] of results) out[i] = r;
  return out;
}
