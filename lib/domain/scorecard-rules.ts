/**
 * The scorecard rules, pure: the blind rule (who reads which scorecard of a candidate), the lock
 * (no change after the requisition's decision), and a submission checked against the step's
 * template. Every route, feed and event that shows a scorecard goes through `blindView`.
 */
import { ValidationError } from '../errors';
import type { ScorecardBody } from '../api/scorecards';
import type { Viewer } from './visibility';

/** The requisition's team as the rule reads it. */
export interface ScorecardTeam {
  recruiter_id?: unknown;
  hiring_manager_ids?: unknown;
  [attribute: string]: unknown;
}

/**
 * Whether the viewer reads every scorecard of the requisition's candidates: admins (and workspace
 * tokens), its hiring managers and its recruiter; when it names no recruiter, every recruiter, so
 * someone who runs the loop can always read it.
 */
export function seesAllScorecards(v: Viewer, team: ScorecardTeam | undefined): boolean {
  if (v.role === 'admin') return true;
  if (v.userId === undefined) return false;
  if (v.role === 'hiring_manager') return Array.isArray(team?.hiring_manager_ids) && team.hiring_manager_ids.includes(v.userId);
  if (v.role === 'recruiter') return typeof team?.recruiter_id !== 'string' || team.recruiter_id === v.userId;
  return false;
}

/**
 * The blind rule: of one candidate's scorecards (all of them, to know whether the viewer wrote
 * one), those the viewer may read. Anyone else reads their own, and the others only once they
 * have submitted one of their own for that candidate.
 */
export function blindView<S extends { interviewer_id: string }>(
  v: Viewer,
  team: ScorecardTeam | undefined,
  candidateCards: readonly S[],
): S[] {
  if (seesAllScorecards(v, team)) return [...candidateCards];
  const own = candidateCards.filter((s) => v.userId !== undefined && s.interviewer_id === v.userId);
  return own.length ? [...candidateCards] : [];
}

/** Why a scorecard can no longer change, or undefined while it can. */
export function lockedBy(candidateStage: string, reqStatus: string | undefined): string | undefined {
  if (candidateStage === 'placed' || candidateStage === 'rejected') return `the candidate was ${candidateStage}`;
  if (reqStatus === 'closed') return 'the requisition was closed';
  return undefined;
}

/** The submission against the step's template: known attributes and questions, each at most once. */
export function checkAgainstTemplate(body: ScorecardBody, template: { attributes: { name: string }[]; questions: string[] }): void {
  const names = new Set(template.attributes.map((a) => a.name));
  const seen = new Set<string>();
  body.ratings.forEach((r, i) => {
    if (!names.has(r.attribute))
      throw new ValidationError(`ratings[${i}].attribute must be an attribute of the step's scorecard template`, {
        field: `ratings[${i}].attribute`,
      });
    if (seen.has(r.attribute))
      throw new ValidationError(`ratings[${i}].attribute rates ${r.attribute} a second time`, { field: `ratings[${i}].attribute` });
    seen.add(r.attribute);
  });
  const questions = new Set(template.questions);
  const asked = new Set<string>();
  body.answers.forEach((a, i) => {
    if (!questions.has(a.question) || asked.has(a.question))
      throw new ValidationError(`answers[${i}].question must be a question of the step's scorecard template, answered once`, {
        field: `answers[${i}].question`,
      });
    asked.add(a.question);
  });
}
