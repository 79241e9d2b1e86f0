/**
 * The route table: every line of lib/api/<resource>.ts, and the console's twins of the lines marked
 * `console`. The single source for the CDK stack, the local gateway, the authorizers' route list
 * (lib/auth/route-list.generated.ts), the OpenAPI document and the console's typed client. No
 * function imports it: a handler imports its own line, so its bundle carries that line's resource
 * alone. Adding a route is a line in its resource's module, its place here, and a thin handler in
 * functions/<handler>.ts.
 */
import * as activity from './api/activity';
import * as applications from './api/applications';
import * as audit from './api/audit';
import * as boards from './api/boards';
import * as candidateReads from './api/candidate-reads';
import * as candidates from './api/candidates';
import * as erasure from './api/erasure';
import * as careers from './api/careers';
import * as careersSettings from './api/careers-settings';
import * as files from './api/files';
import * as imports from './api/imports';
import * as interviewPlans from './api/interview-plans';
import * as interviewRead from './api/interview-read';
import * as interviews from './api/interviews';
import * as members from './api/members';
import * as offerApprovals from './api/offer-approvals';
import * as offers from './api/offers';
import * as mentions from './api/mentions';
import * as notes from './api/notes';
import * as openapi from './api/openapi';
import * as overview from './api/overview';
import * as people from './api/people';
import * as placements from './api/placements';
import * as pipeline from './api/pipeline';
import * as postings from './api/postings';
import * as requisitions from './api/requisitions';
import * as scorecards from './api/scorecards';
import * as screening from './api/screening';
import * as session from './api/session';
import * as settings from './api/settings';
import * as tokens from './api/tokens';
import * as twoFactor from './api/two-factor';
import * as webhooks from './api/webhooks';
import { consoleTwin, type Route } from './api/route';

export { allows, API_PREFIX, CONSOLE_PREFIX, consoleTwin, matchPath } from './api/route';
export type { AuthKind, HttpMethod, Route } from './api/route';

// The OpenAPI document lists paths in this order.
const lines = [
  candidateReads.listCandidates,
  candidates.createCandidate,
  candidateReads.getCandidate,
  candidates.updateCandidate,
  erasure.eraseCandidate,
  screening.overturnScreening,
  people.getPerson,
  people.mergePerson,
  imports.createImport,
  imports.getImport,
  imports.listImportErrors,
  requisitions.listRequisitions,
  requisitions.createRequisition,
  requisitions.getRequisition,
  requisitions.updateRequisition,
  requisitions.changeRequisitionStatus,
  interviewPlans.getInterviewPlan,
  interviewPlans.putInterviewPlan,
  interviews.createInterview,
  interviews.listInterviews,
  interviewRead.getInterview,
  interviews.updateInterview,
  interviews.cancelInterview,
  postings.getPosting,
  postings.putPosting,
  applications.applyToJob,
  applications.createCvUpload,
  applications.careersCvUpload,
  applications.careersApply,
  scorecards.submitScorecard,
  scorecards.listInterviewScorecards,
  scorecards.listCandidateScorecards,
  pipeline.getPipeline,
  pipeline.changeStage,
  offers.createOffer,
  offers.listOffers,
  offers.getOffer,
  offers.updateOffer,
  offers.changeOfferStatus,
  offerApprovals.decideOfferApproval,
  offerApprovals.listOfferApprovals,
  offerApprovals.getOfferApprovals,
  offerApprovals.updateOfferApprovals,
  placements.listPlacements,
  placements.getPlacement,
  placements.updatePlacement,
  placements.cancelPlacement,
  placements.createPlacement,
  openapi.openapi,
  boards.listBoardJobs,
  boards.getBoardJob,
  careers.careersPage,
  careers.careersJobPage,
  careers.careersWithdrawPage,
  careers.careersWithdraw,
  session.login,
  session.getSession,
  session.logout,
  tokens.createToken,
  tokens.listTokens,
  tokens.revokeToken,
  tokens.rotateToken,
  webhooks.listWebhooks,
  webhooks.createWebhook,
  webhooks.getWebhook,
  webhooks.updateWebhook,
  webhooks.deleteWebhook,
  webhooks.testWebhook,
  webhooks.listWebhookDeliveries,
  webhooks.resendWebhookEvent,
  webhooks.replayWebhook,
  webhooks.getWebhookReplay,
  webhooks.rotateWebhookSecret,
  session.changePassword,
  twoFactor.verifyTwoFactor,
  twoFactor.getTwoFactor,
  twoFactor.startTwoFactor,
  twoFactor.confirmTwoFactor,
  twoFactor.disableTwoFactor,
  session.setTimeZone,
  overview.getOverview,
  settings.getPipelineSettings,
  settings.updatePipelineSettings,
  careersSettings.getCareersSettings,
  careersSettings.updateCareersSettings,
  tokens.getTokenSettings,
  tokens.updateTokenSettings,
  twoFactor.getTwoFactorSettings,
  twoFactor.updateTwoFactorSettings,
  members.listMembers,
  members.addMember,
  members.changeMemberRole,
  members.removeMember,
  members.resetMemberPassword,
  members.clearMemberLockout,
  members.deactivateMember,
  members.reactivateMember,
  twoFactor.resetMemberTwoFactor,
  audit.listAudit,
  notes.createNote,
  notes.listNotes,
  notes.getNote,
  notes.updateNote,
  notes.deleteNote,
  activity.listActivity,
  mentions.listMentions,
  mentions.readMention,
  files.createUpload,
  files.getUploadLimits,
  files.getUpload,
  files.attachFile,
  files.listFiles,
  files.getFile,
  files.getFileText,
  files.downloadFile,
  files.deleteFile,
] as const satisfies readonly Route[];

/** A route table line; the type `apiHandler` works with. */
export type RouteDef = (typeof lines)[number];

/** Every route the API serves: the table's lines, then the console's twins of the lines marked `console`. */
export const routes: readonly Route[] = [...lines, ...(lines as readonly Route[]).filter((r) => r.console).map(consoleTwin)];

/** The route table line of a handler module (for tests and scripts; a handler imports its line). */
export function route<H extends RouteDef['handler']>(handler: H): Extract<RouteDef, { handler: H }> {
  const found = lines.find((r) => r.handler === handler);
  if (!found) throw new Error(`No route for handler ${handler}`);
  return found as Extract<RouteDef, { handler: H }>;
}
