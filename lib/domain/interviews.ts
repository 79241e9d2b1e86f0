/**
 * The interview routes: schedule one for a candidate on a step of their requisition's plan, read
 * one, list them (rescheduling and cancelling are interview-changes.ts, so that scheduling does not
 * bundle them). Conflicts and the stage follow are pure rules (interview-rules.ts); who sees an
 * interview is interview-access.ts.
 */
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { newId, nowIso } from '../ids';
import { logger } from '../logger';
import type { CreateInterviewBody, Interview, ListInterviewsQuery } from '../api/interviews';
import { candidateStage, getCandidate } from '../store/candidates';
import { getRequisitionAndPlan } from '../store/interview-plans';
import {
  getExternalClaim,
  getInterview as readInterview,
  queryBookings,
  queryInterviewPage,
  viewPageKey,
  writeInterviewCreate,
  type InterviewView,
} from '../store/interviews';
import { getStatsItem } from '../store/stats';
import { listUsers } from '../store/users';
import { moveCandidate } from './candidate-writes';
import { decodeCursor, encodeCursor } from './cursor';
import { interviewReader, mayReadInterview } from './interview-access';
import { withFeedback } from './interview-feedback';
import { firstConflict, intervalOf, LOOKBACK_MS, stageOnSchedule } from './interview-rules';
import { auditBy, type Principal } from './principal';
import { decideAndWrite } from './retry';

export const BUSY = 'interview is being changed concurrently; try again';
export const SCHEDULER = { type: 'system', id: 'interview-scheduling', name: 'interview scheduling' } as const;

const erasedError = () =>
  new ConflictError('the candidate was erased; no interview can be scheduled for them', { code: 'candidate_erased' });

/** The interviewers as active members; a 400 names the one that is not. */
export async function checkInterviewers(tenantId: string, ids: readonly string[]) {
  const active = new Set((await listUsers(tenantId)).filter((u) => u.deactivated_at === undefined).map((u) => u.id));
  const bad = ids.findIndex((id) => !active.has(id));
  if (bad >= 0)
    throw new ValidationError(`interviewers[${bad}] must be the id of an active member of this workspace`, {
      field: `interviewers[${bad}]`,
    });
}

/** A 409 naming the first booking of any interviewer the interval overlaps (one Query per interviewer, side by side). */
export async function checkConflicts(tenantId: string, iv: Pick<Interview, 'id' | 'start' | 'end' | 'interviewers'>) {
  const start = Date.parse(iv.start);
  const end = Date.parse(iv.end);
  const from = new Date(start - LOOKBACK_MS).toISOString();
  const found = await Promise.all(
    iv.interviewers.map(async (u) => {
      const booked = await queryBookings(tenantId, u, from, iv.end);
      return firstConflict(
        booked.map((b) => ({ id: b.id, start: Date.parse(b.start), end: Date.parse(b.end) })),
        { id: iv.id, start, end },
      );
    }),
  );
  const i = found.findIndex(Boolean);
  if (i < 0) return;
  const b = found[i]!;
  throw new ConflictError(
    `interviewers[${i}] is booked from ${new Date(b.start).toISOString()} to ${new Date(b.end).toISOString()} (interview ${b.id}); send allow_conflicts: true to book anyway`,
    { field: `interviewers[${i}]`, existingId: b.id },
  );
}

/**
 * The candidate follows the first interview: from applied or ai_screened to interview_scheduled,
 * a stage move by the service (actor system), unless the workspace turned the follow off. The
 * interview is already written: a move that fails is logged and left to the recruiter.
 */
async function followStage(tenantId: string, candidateId: string, stage: ReturnType<typeof candidateStage>) {
  const to = stageOnSchedule(stage);
  if (!to) return;
  try {
    await moveCandidate(tenantId, candidateId, to, nowIso, {
      fromStage: stage,
      audit: { action: 'candidate.stage_changed', actor: SCHEDULER, target: { type: 'candidate', id: candidateId } },
    });
  } catch (e) {
    logger.warn('the candidate did not follow the interview', { candidate_id: candidateId, error: (e as Error).name });
  }
}

/** Whether the workspace lets interviews move candidates (on unless an admin turned it off). */
const followsInterviews = (stats: { item: Record<string, unknown> }) => stats.item.auto_interview_stages !== false;

/**
 * Schedule: the candidate, the plan, the members and the settings read side by side; the
 * interviewers' bookings (unless allow_conflicts); one transaction. `created` false when the
 * external event id named an interview already made (that interview is the answer).
 */
export async function createInterview(
  p: Principal,
  candidateId: string,
  body: CreateInterviewBody,
): Promise<{ interview: Interview; created: boolean }> {
  const { start, end } = intervalOf(body.start, body.end);
  const [cand, claimed, stats] = await Promise.all([
    getCandidate(p.tenantId, candidateId),
    body.external_event_id === undefined ? undefined : getExternalClaim(p.tenantId, body.external_event_id),
    getStatsItem(p.tenantId),
  ]);
  if (!cand) throw new NotFoundError('candidate');
  if (cand.erased_at) throw erasedError();
  if (claimed) {
    const existing = await readInterview(p.tenantId, claimed);
    if (existing) return { interview: existing, created: false };
  }
  const reqId = typeof cand.req_id === 'string' ? cand.req_id : undefined;
  const { plan } = reqId ? await getRequisitionAndPlan(p.tenantId, reqId) : { plan: undefined };
  const step = plan?.steps.find((s) => s.id === body.step_id);
  if (!step)
    throw new ValidationError("step_id must be the id of a step of the interview plan of the candidate's requisition", {
      field: 'step_id',
    });
  const interviewers = [...new Set(body.interviewers ?? step.interviewers)];
  if (!interviewers.length)
    throw new ValidationError('interviewers must name at least one member (the step has no default interviewers)', {
      field: 'interviewers',
    });
  await checkInterviewers(p.tenantId, interviewers);
  const at = nowIso();
  const iv: Interview = {
    id: newId(),
    candidate_id: candidateId,
    req_id: reqId ?? null,
    step_id: step.id,
    step_name: step.name,
    start,
    end,
    time_zone: body.time_zone,
    interviewers,
    location: body.location ?? null,
    external_event_id: body.external_event_id ?? null,
    status: 'scheduled',
    sequence: 0,
    invite_candidate: body.invite_candidate ?? false,
    created_at: at,
    updated_at: at,
  };
  if (!body.allow_conflicts) await checkConflicts(p.tenantId, iv);
  const audit = auditBy(p, 'interview.scheduled', { type: 'interview', id: iv.id }, [
    { field: 'start', after: iv.start },
    { field: 'end', after: iv.end },
    { field: 'interviewers', after: iv.interviewers },
  ]);
  const result = await decideAndWrite<null, null, { interview: Interview; created: boolean }, string>({
    state: null,
    decide: () => ({ write: null }),
    write: async () => {
      const outcome = await writeInterviewCreate(p.tenantId, iv, audit);
      if ('refused' in outcome && outcome.refused === 'candidate') throw erasedError();
      if ('refused' in outcome && outcome.refused === 'external') {
        const other = await readInterview(p.tenantId, String(outcome.seen?.interview_id));
        if (other) return { outcome: { written: true }, result: { interview: other, created: false } };
      }
      return { outcome, result: { interview: iv, created: true } };
    },
    again: () => null,
    busy: BUSY,
  });
  if (result.created && followsInterviews(stats)) await followStage(p.tenantId, candidateId, candidateStage(cand));
  return result;
}

/** One interview the caller may read; any other is the 404 of one that does not exist. */
export async function readable(p: Principal, id: string): Promise<Interview> {
  const iv = await readInterview(p.tenantId, id);
  if (!iv || !(await mayReadInterview(p, iv))) throw new NotFoundError('interview');
  return iv;
}

/**
 * One interview, with its step's kit and scorecard template as the plan holds them now (so an
 * interviewer, who does not read plans, prepares from the interview alone; null once the step is
 * gone from the plan), and `feedback_overdue` for whoever reads all its scorecards
 * (lib/domain/interview-feedback.ts). The requisition and its plan are one read.
 */
export async function getInterview(p: Principal, id: string) {
  const iv = await readable(p, id);
  const { requisition, plan } = iv.req_id
    ? await getRequisitionAndPlan(p.tenantId, iv.req_id)
    : { requisition: undefined, plan: undefined };
  const step = plan?.steps.find((s) => s.id === iv.step_id);
  const prepared = { ...iv, kit: step ? step.kit : null, scorecard_template: step ? step.scorecard : null };
  return withFeedback(p, prepared, requisition);
}

/**
 * A page of interviews by start time: one Query of the view the filters choose (an interviewer's
 * own partition, the candidate's, the requisition's, or the workspace's), the other filters in it.
 * An interviewer lists their own interviews; a hiring manager's page leaves out what they may not see.
 */
export async function listInterviews(p: Principal, q: ListInterviewsQuery): Promise<{ items: Interview[]; next_cursor: string | null }> {
  const reader = interviewReader(p);
  const interviewer = reader.role === 'interviewer' ? reader.userId : q.interviewer;
  if (reader.role === 'interviewer' && q.interviewer !== undefined && q.interviewer !== reader.userId)
    throw new ValidationError('an interviewer lists their own interviews: leave interviewer out or give your own id', {
      field: 'interviewer',
    });
  const view: InterviewView = interviewer
    ? { by: 'interviewer', id: interviewer }
    : q.candidate
      ? { by: 'candidate', id: q.candidate }
      : q.requisition
        ? { by: 'requisition', id: q.requisition }
        : { by: 'all' };
  const from = q.from && new Date(q.from).toISOString();
  const to = q.to && new Date(q.to).toISOString();
  const scope = {
    tenantId: p.tenantId,
    filters: JSON.stringify(['interviews', view, q.candidate, q.requisition, from, to]),
    key: viewPageKey(p.tenantId, view),
  };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  const page = await queryInterviewPage(p.tenantId, view, {
    from,
    to,
    candidate: q.candidate,
    requisition: q.requisition,
    limit: q.limit,
    startKey,
  });
  const items = reader.seesAll ? page.items : await reader.filter(page.items);
  return { items, next_cursor: page.lastKey ? encodeCursor(scope, page.lastKey) : null };
}
