/**
 * Erasure (GDPR article 17): a candidate's personal data leaves every item the service keeps,
 * while its id, stage, requisition, timestamps, stage history and every count stay. How the copies
 * are found and scrubbed, and how the erasure wins against writes in flight: lib/store/erasure.ts.
 * The answer is a receipt; a later call sweeps again and answers it with what that found added.
 */
import { candidate } from '../entities/candidate';
import { nowIso } from '../ids';
import type { ErasureReceipt as ReceiptBody } from '../schemas';
import { auditPuts, type AuditActor, type AuditEntry } from '../store/audit';
import {
  dueFollowUps,
  eraseCandidateItems,
  followUpDone,
  sweepErased,
  type ErasureActor,
  type ErasureReceipt,
  type PersonErased,
  type ScrubCounts,
} from '../store/erasure';
import { countOf } from '../store/scrub';
import { personOfCandidate } from '../store/people';
import { countPersonFiles } from '../store/files';
import { removePerson } from '../store/person-erasure';
import { scrubScorecards } from '../store/scorecards';
import { DELIVERY_TIMEOUT_S, FANOUT_TIMEOUT_S } from '../webhooks/config';
import { actorOf, auditBy, type Principal } from './principal';

export type { ErasureActor, ErasureReceipt };

/** What the API answers: the receipt without its actor (the audit log names who erased). */
export const receiptBody = (r: ErasureReceipt): ReceiptBody => ({
  id: r.id,
  erased_at: r.erased_at,
  scrubbed: r.scrubbed,
  person: r.person ?? null,
});

/**
 * The audit record of an erasure: the personal fields by name, and how many stored items of each
 * kind were scrubbed. It goes into the erasure's own transaction.
 */
const erasureChanges = (r: ErasureReceipt) => [...candidate.personal.map((field) => ({ field })), { field: 'scrubbed', after: r.scrubbed }];
/** The record of a later sweep that found copies (written with the receipt's new counts): what it scrubbed. */
const sweepChanges = (added: ScrubCounts) => [{ field: 'scrubbed', after: added }];

/** A retention rule as the audit log's actor: `system`, named after the rule. */
export const ruleActor = (rule: string): AuditActor => ({ type: 'system', id: `retention:${rule}`, name: rule });
/** The follow-up sweep as the audit log's actor. */
const FOLLOW_UP_ACTOR: AuditActor = { type: 'system', id: 'erasure-follow-up', name: 'erasure follow-up' };
/** The daily run's sweep of recent erasures as the audit log's actor. */
export const RESWEEP_ACTOR: AuditActor = { type: 'system', id: 'retention', name: 'retention run' };

/**
 * When an erasure's follow-up sweep is due: after the longest write that can be in flight when it
 * runs, a fan-out or a delivery batch, each bounded by its function's timeout (an API request's
 * is shorter). Every such write checks the erasure's marker, so the follow-up is the backstop.
 */
export const FOLLOW_UP_AFTER_MS = Math.max(FANOUT_TIMEOUT_S, DELIVERY_TIMEOUT_S) * 1000;

const sweptAudit = (actor: AuditActor, id: string, added: ScrubCounts): AuditEntry => ({
  action: 'candidate.erasure_swept',
  actor,
  target: { type: 'candidate', id },
  changes: sweepChanges(added),
});

/**
 * Sweep an erased candidate's copies again as `actor`: what it scrubs is added to the receipt and
 * audited (`candidate.erasure_swept`) in the same transaction. Undefined when it is not erased.
 */
export const sweepAgain = (tenantId: string, id: string, audit: (added: ScrubCounts) => AuditEntry, known?: ErasureReceipt) =>
  sweepErased(tenantId, id, (added) => auditPuts(tenantId, audit(added)), known);

/** The audit records of one candidate's erasure: the erasure's, and a later sweep's. */
export interface ErasureAudit {
  erased: (r: ErasureReceipt, id: string) => AuditEntry;
  swept: (added: ScrubCounts, id: string) => AuditEntry;
}

/**
 * The applicant, withdrawing through their confirmation's link, as the audit log's and the stage
 * history's actor: a `system` actor named `applicant`, since the v1 actor types are a closed list.
 */
export const APPLICANT_ACTOR = { type: 'system', id: 'applicant', name: 'Applicant' } as const;

const systemAudit = (actor: ErasureActor): ErasureAudit => {
  const who = actor.type === 'system' ? ruleActor(actor.rule) : actor.type === 'applicant' ? APPLICANT_ACTOR : actor;
  return {
    erased: (r, id) => ({ action: 'candidate.erased', actor: who, target: { type: 'candidate', id }, changes: erasureChanges(r) }),
    swept: (added, id) => sweptAudit(who, id, added),
  };
};

/** Erase one candidate alone (its person's items aside): the candidate erasure of lib/store/erasure.ts. */
async function eraseOne(tenantId: string, id: string, actor: ErasureActor, audit: ErasureAudit, person?: PersonErased) {
  const done = await eraseCandidateItems(
    tenantId,
    id,
    actor,
    nowIso,
    (r) => auditPuts(tenantId, audit.erased(r, id)),
    FOLLOW_UP_AFTER_MS,
    person,
  );
  // After the mark: a scorecard submitted meanwhile is refused by it, or was written and is scrubbed here.
  await scrubScorecards(tenantId, id, done.receipt.erased_at);
  if (done.first) return done;
  const swept = await sweepAgain(tenantId, id, (added) => audit.swept(added, id), done.receipt);
  return { receipt: swept?.receipt ?? done.receipt, first: false };
}

/**
 * Erase one candidate of the workspace as `actor`, and with it their person: the person's item,
 * claims and partition, and every other candidate of theirs (each erased, receipted and audited as
 * this one is). `first` tells whether this call erased it; a later call sweeps again (and erases
 * any candidate of the person an interrupted call left). The actor is kept on the receipt.
 */
export async function eraseCandidateAs(
  tenantId: string,
  id: string,
  actor: ErasureActor,
  audit: ErasureAudit = systemAudit(actor),
): Promise<{ receipt: ErasureReceipt; first: boolean }> {
  const personId = await personOfCandidate(tenantId, id);
  let person: PersonErased | undefined;
  if (personId) {
    const files = await eraseFileObjects(tenantId, personId);
    const removed = await removePerson(tenantId, personId);
    // Again once the records are gone: an attach in flight may have copied its bytes meanwhile.
    if (files) await eraseFileObjects(tenantId, personId, true);
    for (const merged of removed.unmerged) await eraseFileObjects(tenantId, merged, true);
    const others = removed.candidateIds.filter((c) => c !== id);
    for (const other of others) await eraseOne(tenantId, other, actor, audit);
    person = { id: personId, candidates: others.length + 1, items: removed.items, files };
  }
  return eraseOne(tenantId, id, actor, audit, person);
}

/**
 * The person's files outside the table: every version of every object under their prefix. Before
 * the partition goes, so a failure leaves the person to be erased again; the bucket is loaded only
 * for a person with files (a function that erases is given it, lib/api/candidates.ts `files`).
 * Answers how many files the person had.
 */
async function eraseFileObjects(tenantId: string, personId: string, again = false): Promise<number> {
  const files = again ? 1 : await countPersonFiles(tenantId, personId);
  if (!files) return 0;
  const [{ deleteEveryVersionUnder }, { personFilesPrefix }] = await Promise.all([import('../files/storage'), import('../files/keys')]);
  await deleteEveryVersionUnder(personFilesPrefix(tenantId, personId));
  return files;
}

export async function eraseCandidate(p: Principal, id: string): Promise<ReceiptBody> {
  const { receipt } = await eraseCandidateAs(p.tenantId, id, actorOf(p), {
    erased: (r, cid) => auditBy(p, 'candidate.erased', { type: 'candidate', id: cid }, erasureChanges(r)),
    swept: (added, cid) => auditBy(p, 'candidate.erasure_swept', { type: 'candidate', id: cid }, sweepChanges(added)),
  });
  return receiptBody(receipt);
}

/** Follow-ups one run takes at most; the rest wait for the next minute's. */
export const MAX_FOLLOW_UPS_PER_RUN = 1_000;
const FOLLOW_UPS_AT_ONCE = 8;

/**
 * The follow-up sweeps due at `nowMs` (the retention function, every minute): each erased
 * candidate's copies swept once more, then its follow-up deleted. Idempotent: a follow-up run
 * twice sweeps twice and finds nothing the second time. Counts only.
 */
export async function runErasureFollowUps(nowMs = Date.now()): Promise<{ swept: number; scrubbed: number }> {
  const due = await dueFollowUps(new Date(nowMs).toISOString(), MAX_FOLLOW_UPS_PER_RUN);
  let scrubbed = 0;
  const failed: string[] = [];
  for (let i = 0; i < due.length; i += FOLLOW_UPS_AT_ONCE) {
    await Promise.all(
      due.slice(i, i + FOLLOW_UPS_AT_ONCE).map(async (f) => {
        try {
          const swept = await sweepAgain(f.tenantId, f.candidateId, (added) => sweptAudit(FOLLOW_UP_ACTOR, f.candidateId, added));
          if (swept) scrubbed += countOf(swept.added);
          await followUpDone(f.sk);
        } catch (err) {
          // Kept for the next run; the others go on. By name only.
          failed.push((err as Error).name);
        }
      }),
    );
  }
  // The run fails (and its function's error alarm fires) once every other follow-up is done.
  if (failed.length) throw new Error(`${failed.length} erasure follow-ups failed (${[...new Set(failed)].join(', ')}); retried next run`);
  return { swept: due.length, scrubbed };
}
