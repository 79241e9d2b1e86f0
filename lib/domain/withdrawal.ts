/**
 * An applicant's withdrawal through the link of their confirmation email (lib/domain/withdraw-token.ts,
 * the careers page `/careers/<slug>/withdraw`): the application is withdrawn (the candidate moved
 * to `rejected` with the reason `withdrawn`, of the type `candidate_withdrew`) and its person
 * erased under the erasure rules (lib/domain/erasure.ts: every candidate of theirs, their files,
 * their notes), both by the actor `applicant`. It works once: the second use finds the candidate
 * erased and changes nothing. A forged, expired or foreign token, and a candidate that is not
 * there, are one answer, which tells nothing.
 */
import { config } from '../config';
import { StaleStageError } from '../errors';
import { nowIso } from '../ids';
import { getCareersSettings } from '../store/careers';
import { getCandidate } from '../store/candidates';
import { tenantIdOfSlug } from '../store/postings';
import { moveCandidate } from './candidate-writes';
import { APPLICANT_ACTOR, eraseCandidateAs } from './erasure';
import type { Rejection } from './rejection-rules';
import { checkWithdrawToken } from './withdraw-token';

/** The rejection a withdrawal records, beside the workspace's own reasons (as screening's is). */
export const WITHDRAWN_REJECTION: Rejection = { reason_id: 'withdrawn', label: 'Withdrew the application', type: 'candidate_withdrew' };

/** What the link's page shows: the confirm form, that it was done already, or the neutral page. */
export type WithdrawView = { kind: 'confirm'; jobTitle: string; workspace: string } | { kind: 'done' } | { kind: 'invalid' };

async function resolve(slug: string, token: string, nowMs: number) {
  const checked = checkWithdrawToken(config.formTokenSecret, slug, token, nowMs);
  if (!checked.ok) return undefined;
  const tenantId = await tenantIdOfSlug(slug);
  const cand = tenantId && (await getCandidate(tenantId, checked.candidateId));
  return cand ? { tenantId, id: checked.candidateId, cand } : undefined;
}

/** The GET: reads only, so a mail scanner that follows the link changes nothing. */
export async function withdrawView(slug: string, token: string, nowMs = Date.now()): Promise<WithdrawView> {
  const found = await resolve(slug, token, nowMs);
  if (!found) return { kind: 'invalid' };
  if (found.cand.erased_at) return { kind: 'done' };
  const brand = await getCareersSettings(found.tenantId);
  return {
    kind: 'confirm',
    jobTitle: typeof found.cand.req_title === 'string' ? found.cand.req_title : '',
    workspace: brand?.careers_name ?? brand?.name ?? '',
  };
}

/** The POST: `withdrawn` when this call did it, `done` when it had been done, `invalid` as above. */
export async function withdrawApplication(slug: string, token: string, nowMs = Date.now()): Promise<'withdrawn' | 'done' | 'invalid'> {
  const found = await resolve(slug, token, nowMs);
  if (!found) return 'invalid';
  const { tenantId, id, cand } = found;
  if (cand.erased_at) return 'done';
  // A hire is no longer an application: a placed candidate keeps the stage (and the placement its record); the erasure still runs.
  if (cand.stage !== 'rejected' && cand.stage !== 'placed') {
    try {
      await moveCandidate(tenantId, id, 'rejected', nowIso, {
        actor: APPLICANT_ACTOR,
        rejection: WITHDRAWN_REJECTION,
        audit: { action: 'candidate.stage_changed', actor: APPLICANT_ACTOR, target: { type: 'candidate', id } },
      });
    } catch (err) {
      // Moved meanwhile (a recruiter, the other of two clicks): the erasure below is what was asked for.
      if (!(err instanceof StaleStageError)) throw err;
    }
  }
  const { first } = await eraseCandidateAs(tenantId, id, { type: 'applicant' });
  return first ? 'withdrawn' : 'done';
}
