/**
 * Interviews and scorecards for the console's pages: the reads they share, the labels of the
 * recommendation and ratings, and times shown in the viewer's zone. Imported only by lazily
 * loaded pages, so the first load carries none of it.
 */
import { api, unwrap } from './api/client';

export { browserZone, dayIn, instantOf, span, startOfToday, viewerZone, zones } from './zones';

export const fetchInterviews = (query: {
  interviewer?: string;
  candidate?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}) => unwrap(api.GET('/api/interviews', { params: { query: { limit: 50, ...query } } }));
export type Interview = Awaited<ReturnType<typeof fetchInterviews>>['data'][number];

/** One interview as its own read answers it: with the step's kit and scorecard template, and `feedback_overdue` for who may know. */
export const fetchInterview = async (id: string) => (await unwrap(api.GET('/api/interviews/{id}', { params: { path: { id } } }))).data;
export type InterviewRead = Awaited<ReturnType<typeof fetchInterview>>;

export const fetchPlan = async (reqId: string) =>
  (await unwrap(api.GET('/api/requisitions/{id}/interview-plan', { params: { path: { id: reqId } } }))).data;
export type Plan = Awaited<ReturnType<typeof fetchPlan>>;
export type PlanStep = Plan['steps'][number];

export const fetchCandidateScorecards = async (candidateId: string) =>
  (await unwrap(api.GET('/api/candidates/{id}/scorecards', { params: { path: { id: candidateId } } }))).data;
export const fetchInterviewScorecards = async (interviewId: string) =>
  (await unwrap(api.GET('/api/interviews/{id}/scorecards', { params: { path: { id: interviewId } } }))).data;
export type Scorecard = Awaited<ReturnType<typeof fetchInterviewScorecards>>[number];

export const fetchMembers = async () => (await unwrap(api.GET('/api/members'))).data;
export type Member = Awaited<ReturnType<typeof fetchMembers>>[number];

type Overall = Scorecard['overall'];
type Rating = Scorecard['ratings'][number]['rating'];
// The API's own values (lib/api/scorecards.ts), typed by its schema: that module brings zod along.
export const OVERALLS = ['strong_yes', 'yes', 'no', 'strong_no', 'no_decision'] as const satisfies readonly Overall[];
export const RATINGS = ['strong_yes', 'yes', 'no', 'strong_no'] as const satisfies readonly Rating[];

export const OVERALL_LABELS: Record<Overall, string> = {
  strong_yes: 'Strong yes',
  yes: 'Yes',
  no: 'No',
  strong_no: 'Strong no',
  no_decision: 'No decision',
};
export const overallLabel = (o: string) => OVERALL_LABELS[o as keyof typeof OVERALL_LABELS] ?? o;

/** A location that is a web link (a video call) is shown as a link; anything else as text. */
export const linkOf = (location: string | null) => (location && /^https?:\/\/\S+$/i.test(location) ? location : undefined);
