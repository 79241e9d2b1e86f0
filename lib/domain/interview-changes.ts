/**
 * Rescheduling and cancelling an interview (PATCH and DELETE /api/v1/interviews/{id}): the
 * bookings moved, a new sequence, and the candidate's interview progress counted in the same
 * transaction (lib/store/interview-progress.ts).
 */
import { ConflictError, NotFoundError } from '../errors';
import { nowIso } from '../ids';
import type { Interview, UpdateInterviewBody } from '../api/interviews';
import { writeInterviewChange, type InterviewEvent } from '../store/interviews';
import { queryCandidateScorecards, submittedOn } from '../store/scorecards';
import { progressOfChange, intervalOf } from './interview-rules';
import { BUSY, checkConflicts, checkInterviewers, readable } from './interviews';
import { auditBy, type Principal } from './principal';
import { decideAndWrite } from './retry';

/** A change to write; `submitted`: who has a scorecard of it, read when the panel changes or it is cancelled. */
type Change = { before: Interview; after: Interview; submitted?: ReadonlySet<string> };
type Prepared = { done: Interview } | Change;

/** Who has a scorecard of the interview: one Query, only for a change that counts scorecards in or out. */
const submittedFor = async (tenantId: string, iv: Interview) =>
  submittedOn(await queryCandidateScorecards(tenantId, iv.candidate_id), iv.id);

/**
 * Write a change of a scheduled interview. `prepare` reads the interview and checks the change
 * (members, conflicts: reads of their own); on a lost race it runs again on the interview as it is.
 */
function change(p: Principal, event: InterviewEvent, prepare: () => Promise<Prepared>): Promise<Interview> {
  return decideAndWrite<Prepared, Change, Interview, string>({
    state: prepare(),
    decide: (s) => ('done' in s ? { done: s.done } : { write: s }),
    write: async ({ before, after, submitted }) => {
      const audit = auditBy(p, event, { type: 'interview', id: after.id }, [
        ...(before.start !== after.start ? [{ field: 'start', before: before.start, after: after.start }] : []),
        ...(before.end !== after.end ? [{ field: 'end', before: before.end, after: after.end }] : []),
        ...(before.interviewers.join() !== after.interviewers.join()
          ? [{ field: 'interviewers', before: before.interviewers, after: after.interviewers }]
          : []),
        ...(before.status !== after.status ? [{ field: 'status', before: before.status, after: after.status }] : []),
      ]);
      const progress = submitted && { ...progressOfChange(before, after, submitted), submitted };
      const outcome = await writeInterviewChange(p.tenantId, before, after, event, audit, progress);
      // Candidates are never deleted: an interview without its candidate is not one to change.
      if ('refused' in outcome && outcome.refused === 'candidate') throw new NotFoundError('candidate');
      return { outcome, result: after };
    },
    again: () => prepare(),
    busy: BUSY,
  });
}

const cancelledError = () => new ConflictError('the interview was cancelled; schedule a new one', { field: 'status' });

/** Reschedule, or change the interviewers, the zone or the place: a new sequence, the bookings moved. */
export function updateInterview(p: Principal, id: string, body: UpdateInterviewBody): Promise<Interview> {
  const interval = body.start !== undefined && body.end !== undefined ? intervalOf(body.start, body.end) : undefined;
  return change(p, 'interview.updated', async () => {
    const before = await readable(p, id);
    if (before.status === 'cancelled') throw cancelledError();
    const interviewers = body.interviewers ? [...new Set(body.interviewers)] : before.interviewers;
    const after: Interview = {
      ...before,
      ...(interval && { start: interval.start, end: interval.end }),
      ...(body.time_zone !== undefined && { time_zone: body.time_zone }),
      ...(body.location !== undefined && { location: body.location }),
      interviewers,
    };
    const moved = after.start !== before.start || after.end !== before.end;
    const newPeople = interviewers.filter((u) => !before.interviewers.includes(u));
    if (
      !moved &&
      interviewers.join() === before.interviewers.join() &&
      after.time_zone === before.time_zone &&
      after.location === before.location
    )
      return { done: before };
    if (newPeople.length) await checkInterviewers(p.tenantId, interviewers);
    if (!body.allow_conflicts && (moved || newPeople.length)) await checkConflicts(p.tenantId, after);
    const panelChanged = interviewers.join() !== before.interviewers.join();
    return {
      before,
      after: { ...after, sequence: before.sequence + 1, updated_at: nowIso() },
      ...(panelChanged && { submitted: await submittedFor(p.tenantId, before) }),
    };
  });
}

/** Cancel: the interview stays with status cancelled and a new sequence; its bookings go. A second cancel changes nothing. */
export function cancelInterview(p: Principal, id: string): Promise<Interview> {
  return change(p, 'interview.cancelled', async () => {
    const before = await readable(p, id);
    if (before.status === 'cancelled') return { done: before };
    return {
      before,
      after: { ...before, status: 'cancelled', sequence: before.sequence + 1, updated_at: nowIso() },
      submitted: await submittedFor(p.tenantId, before),
    };
  });
}
