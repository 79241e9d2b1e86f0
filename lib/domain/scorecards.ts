/**
 * The scorecard routes: submit (or edit) one's scorecard of an interview, and read an interview's
 * or a candidate's scorecards under the blind rule (scorecard-rules.ts).
 */
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { newId, nowIso } from '../ids';
import type { Scorecard, ScorecardBody } from '../api/scorecards';
import { getCandidate } from '../store/candidates';
import { getRequisitionAndPlan } from '../store/interview-plans';
import { getInterview } from '../store/interviews';
import { getRequisition } from '../store/requisitions';
import { queryCandidateScorecards, writeScorecard, type ScorecardParts } from '../store/scorecards';
import { assignmentsOf } from './assignments';
import { mayReadInterview } from './interview-access';
import { auditBy, type Principal } from './principal';
import { decideAndWrite } from './retry';
import { blindView, checkAgainstTemplate, lockedBy } from './scorecard-rules';
import { maySee, seesAll, viewerOf } from './visibility';

const BUSY = 'the scorecard is being changed concurrently; try again';
const lockedError = (why: string) =>
  new ConflictError(`${why}: the requisition's decision is made and scorecards no longer change`, { code: 'scorecard_locked' });

/** Whose scorecard the call writes: the caller's own; a workspace token names the interviewer. */
function writerOf(p: Principal, body: ScorecardBody): string {
  const self = viewerOf(p).userId;
  if (self === undefined) {
    if (body.interviewer_id === undefined)
      throw new ValidationError('interviewer_id is required: a workspace token writes for an interviewer it names', {
        field: 'interviewer_id',
      });
    return body.interviewer_id;
  }
  if (body.interviewer_id !== undefined && body.interviewer_id !== self)
    throw new ForbiddenError('you write your own scorecard: leave interviewer_id out or give your own id', { field: 'interviewer_id' });
  return self;
}

/** One interview the caller may read; any other is the 404 of one that does not exist. */
async function readable(p: Principal, id: string) {
  const iv = await getInterview(p.tenantId, id);
  if (!iv || !(await mayReadInterview(p, iv))) throw new NotFoundError('interview');
  return iv;
}

type State = { prev: Scorecard | undefined };

/**
 * Submit, or edit (a new version, every one kept), the writer's scorecard of an interview they are
 * on, until the requisition's decision. `created` is true for the first version.
 */
export async function submitScorecard(
  p: Principal,
  interviewId: string,
  body: ScorecardBody,
): Promise<{ scorecard: Scorecard; created: boolean }> {
  const iv = await readable(p, interviewId);
  const writer = writerOf(p, body);
  if (!iv.interviewers.includes(writer))
    throw new ForbiddenError('only an interviewer of this interview submits a scorecard for it', { field: 'interviewer_id' });
  if (iv.status === 'cancelled') throw new ConflictError('the interview was cancelled; it takes no scorecard', { field: 'status' });
  const [cand, { requisition, plan }] = await Promise.all([
    getCandidate(p.tenantId, iv.candidate_id),
    iv.req_id ? getRequisitionAndPlan(p.tenantId, iv.req_id) : { requisition: undefined, plan: undefined },
  ]);
  if (!cand || cand.erased_at) throw new NotFoundError('interview');
  const why = lockedBy(String(cand.stage), requisition?.status);
  if (why) throw lockedError(why);
  checkAgainstTemplate(body, plan?.steps.find((s) => s.id === iv.step_id)?.scorecard ?? { attributes: [], questions: [] });
  const read = async (): Promise<State> => ({
    prev: (await queryCandidateScorecards(p.tenantId, iv.candidate_id)).find(
      (s) => s.interview_id === iv.id && s.interviewer_id === writer,
    ),
  });
  return decideAndWrite<State, Scorecard, { scorecard: Scorecard; created: boolean }, ScorecardParts>({
    state: read(),
    decide: ({ prev }) => {
      const at = nowIso();
      return {
        write: {
          id: prev?.id ?? newId(),
          interview_id: iv.id,
          candidate_id: iv.candidate_id,
          req_id: iv.req_id,
          step_id: iv.step_id,
          interviewer_id: writer,
          overall: body.overall,
          ratings: body.ratings,
          answers: body.answers,
          note: body.note ?? null,
          version: (prev?.version ?? 0) + 1,
          submitted_at: prev?.submitted_at ?? at,
          updated_at: at,
        },
      };
    },
    write: async (s) => {
      // The ids place the record on the candidate's activity feed (lib/domain/activity-rules.ts).
      const audit = auditBy(p, 'scorecard.submitted', { type: 'scorecard', id: s.id }, [
        { field: 'overall', after: s.overall },
        { field: 'version', after: s.version },
        { field: 'candidate_id', after: s.candidate_id },
        { field: 'interview_id', after: s.interview_id },
        { field: 'interviewer_id', after: s.interviewer_id },
        { field: 'req_id', after: s.req_id },
      ]);
      const outcome = await writeScorecard(p.tenantId, s, audit);
      if ('refused' in outcome) {
        if (outcome.refused === 'candidate') {
          const stage = outcome.seen?.stage;
          if (outcome.seen && !outcome.seen.erased_at && (stage === 'placed' || stage === 'rejected'))
            throw lockedError(`the candidate was ${stage}`);
          throw new NotFoundError('interview');
        }
        if (outcome.refused === 'requisition') throw lockedError('the requisition was closed');
        if (outcome.refused === 'interview') {
          if (outcome.seen?.status === 'scheduled')
            throw new ForbiddenError('only an interviewer of this interview submits a scorecard for it', { field: 'interviewer_id' });
          throw new ConflictError('the interview was cancelled; it takes no scorecard', { field: 'status' });
        }
      }
      return { outcome, result: { scorecard: s, created: s.version === 1 } };
    },
    again: () => read(),
    busy: BUSY,
  });
}

const bySubmission = (a: Scorecard, b: Scorecard) => a.submitted_at.localeCompare(b.submitted_at) || a.id.localeCompare(b.id);

/** An interview's scorecards the caller may read: the blind rule is judged on all of the candidate's. */
export async function listInterviewScorecards(p: Principal, interviewId: string): Promise<Scorecard[]> {
  const iv = await readable(p, interviewId);
  const [cards, team] = await Promise.all([
    queryCandidateScorecards(p.tenantId, iv.candidate_id),
    iv.req_id ? getRequisition(p.tenantId, iv.req_id) : undefined,
  ]);
  return blindView(viewerOf(p), team, cards)
    .filter((s) => s.interview_id === iv.id)
    .sort(bySubmission);
}

/** A candidate's scorecards the caller may read; a candidate the caller does not see is a 404. */
export async function listCandidateScorecards(p: Principal, candidateId: string): Promise<Scorecard[]> {
  const v = viewerOf(p);
  const cand = await getCandidate(p.tenantId, candidateId);
  if (!cand) throw new NotFoundError('candidate');
  const reqId = typeof cand.req_id === 'string' ? cand.req_id : undefined;
  const [team, cards] = await Promise.all([
    reqId ? getRequisition(p.tenantId, reqId) : undefined,
    queryCandidateScorecards(p.tenantId, candidateId),
  ]);
  if (!seesAll(v) && !maySee(v, { kind: 'candidate', id: candidateId, requisition: team }, await assignmentsOf(p.tenantId, v)))
    throw new NotFoundError('candidate');
  return blindView(v, team, cards).sort(bySubmission);
}
