/**
 * What each workspace role may do, in one place: the permission table (which roles may call each
 * route), the token scopes a role may hold, and the token rules that follow from them. The HTTP
 * boundary (lib/http.ts) refuses a call the table does not allow, for a session and for a token
 * alike (a token acts with its creator's role); the domain checks (lib/domain/tokens.ts,
 * members.ts) and the console (which offers only what `may` allows) read it; `npm run openapi`
 * writes it into docs/permissions.md.
 *
 * Pure and dependency-free beyond lib/model, so the console bundles it as it is.
 */
import { ROLES, SCOPES, type Role, type Scope, type TokenKind } from './model';

const ALL = ROLES;
/** Recruiting work: candidates, imports, requisitions. */
const RECRUITING: readonly Role[] = ['admin', 'recruiter'];
/** Work on the requisitions someone is on: reading them and their candidates, moving stages. */
const ON_THE_TEAM: readonly Role[] = ['admin', 'recruiter', 'hiring_manager'];
const ADMIN: readonly Role[] = ['admin'];

/**
 * Which roles may call each route, by its lib/routes.ts name (`METHOD path`). A route missing
 * here is called by nobody (a test holds this table and the route table to the same routes);
 * the public routes (sign-in, the OpenAPI document) are not in it. What a role then sees of the
 * records a route answers is `maySee` (lib/domain/visibility.ts).
 */
export const ROUTE_ROLES = {
  'GET /api/v1/candidates': ALL,
  'POST /api/v1/candidates': RECRUITING,
  'GET /api/v1/candidates/{id}': ALL,
  'PATCH /api/v1/candidates/{id}': RECRUITING,
  'POST /api/v1/candidates/{id}/erase': ADMIN,
  'POST /api/v1/candidates/{id}/screening/overturn': RECRUITING,
  'POST /api/v1/candidates/imports': RECRUITING,
  'GET /api/v1/candidates/imports/{id}': RECRUITING,
  'GET /api/v1/candidates/imports/{id}/errors': RECRUITING,
  'GET /api/v1/requisitions': ON_THE_TEAM,
  'POST /api/v1/requisitions': RECRUITING,
  'GET /api/v1/requisitions/{id}': ON_THE_TEAM,
  'PATCH /api/v1/requisitions/{id}': RECRUITING,
  'POST /api/v1/requisitions/{id}/status': ON_THE_TEAM,
  'GET /api/v1/requisitions/{id}/posting': ON_THE_TEAM,
  'PUT /api/v1/requisitions/{id}/posting': RECRUITING,
  'GET /api/v1/pipeline': ON_THE_TEAM,
  'POST /api/v1/pipeline': ON_THE_TEAM,
  'GET /api/session': ALL,
  'DELETE /api/session': ALL,
  'PUT /api/session/password': ALL,
  'PUT /api/account/time-zone': ALL,
  'POST /api/tokens': ALL,
  'GET /api/tokens': ALL,
  'DELETE /api/tokens/{id}': ALL,
  'POST /api/tokens/{id}/rotate': ALL,
  'GET /api/webhooks': RECRUITING,
  'POST /api/webhooks': ADMIN,
  'GET /api/webhooks/{id}': RECRUITING,
  'PATCH /api/webhooks/{id}': ADMIN,
  'DELETE /api/webhooks/{id}': ADMIN,
  'POST /api/webhooks/{id}/test': ADMIN,
  'GET /api/webhooks/{id}/deliveries': RECRUITING,
  'POST /api/webhooks/{id}/resend': ADMIN,
  'POST /api/webhooks/{id}/replay': ADMIN,
  'GET /api/webhooks/{id}/replay': RECRUITING,
  'POST /api/webhooks/{id}/rotate-secret': ADMIN,
  'GET /api/overview': ALL,
  'GET /api/settings/pipeline': ALL,
  'PUT /api/settings/pipeline': ADMIN,
  'GET /api/settings/tokens': ALL,
  'PUT /api/settings/tokens': ADMIN,
  // Everyone sees who is in the workspace: a requisition's team names its members.
  'GET /api/members': ALL,
  'POST /api/members': ADMIN,
  'PATCH /api/members/{id}': ADMIN,
  'DELETE /api/members/{id}': ADMIN,
  'POST /api/members/{id}/reset-password': ADMIN,
  'DELETE /api/members/{id}/lockout': ADMIN,
  'POST /api/members/{id}/deactivate': ADMIN,
  'POST /api/members/{id}/reactivate': ADMIN,
  'GET /api/audit': ADMIN,
  'GET /api/candidates': ALL,
  'POST /api/candidates': RECRUITING,
  'GET /api/candidates/{id}': ALL,
  'PATCH /api/candidates/{id}': RECRUITING,
  'POST /api/candidates/{id}/erase': ADMIN,
  'POST /api/candidates/{id}/screening/overturn': RECRUITING,
  'POST /api/candidates/imports': RECRUITING,
  'GET /api/candidates/imports/{id}': RECRUITING,
  'GET /api/candidates/imports/{id}/errors': RECRUITING,
  'GET /api/requisitions': ON_THE_TEAM,
  'POST /api/requisitions': RECRUITING,
  'GET /api/requisitions/{id}': ON_THE_TEAM,
  'PATCH /api/requisitions/{id}': RECRUITING,
  'POST /api/requisitions/{id}/status': ON_THE_TEAM,
  'GET /api/requisitions/{id}/posting': ON_THE_TEAM,
  'PUT /api/requisitions/{id}/posting': RECRUITING,
  'POST /api/pipeline': ON_THE_TEAM,
  // A person, their notes, feed and files are read by everyone who sees one of their candidates,
  // each read limited by `seenPerson` (lib/domain/person-sight.ts): a hiring manager through their
  // requisitions, an interviewer through their interview assignments. Notes are written by the
  // team of the person's requisitions; files are recruiting work. Offers stay recruiting work
  // until a hiring manager's view of them is built.
  'GET /api/v1/people/{id}': ALL,
  'GET /api/people/{id}': ALL,
  'POST /api/v1/people/{id}/merge': RECRUITING,
  'POST /api/people/{id}/merge': RECRUITING,
  // A hiring manager reads the plan of the requisitions they may see; the recruiting roles write it.
  'GET /api/v1/requisitions/{id}/interview-plan': ON_THE_TEAM,
  'GET /api/requisitions/{id}/interview-plan': ON_THE_TEAM,
  'PUT /api/v1/requisitions/{id}/interview-plan': RECRUITING,
  'PUT /api/requisitions/{id}/interview-plan': RECRUITING,
  // The recruiting roles schedule; everyone reads the interviews they may see (an interviewer
  // their own, a hiring manager their requisitions': lib/domain/interview-access.ts).
  'POST /api/v1/candidates/{id}/interviews': RECRUITING,
  'POST /api/candidates/{id}/interviews': RECRUITING,
  'GET /api/v1/interviews': ALL,
  'GET /api/interviews': ALL,
  'GET /api/v1/interviews/{id}': ALL,
  'GET /api/interviews/{id}': ALL,
  'PATCH /api/v1/interviews/{id}': RECRUITING,
  'PATCH /api/interviews/{id}': RECRUITING,
  'DELETE /api/v1/interviews/{id}': RECRUITING,
  'DELETE /api/interviews/{id}': RECRUITING,
  // Anyone may be on a panel: who writes is the interview's interviewer list, who reads what is
  // the blind rule (lib/domain/scorecard-rules.ts).
  'POST /api/v1/interviews/{id}/scorecards': ALL,
  'POST /api/interviews/{id}/scorecards': ALL,
  'GET /api/v1/interviews/{id}/scorecards': ALL,
  'GET /api/interviews/{id}/scorecards': ALL,
  'GET /api/v1/candidates/{id}/scorecards': ALL,
  'GET /api/candidates/{id}/scorecards': ALL,
  'POST /api/v1/candidates/{id}/offers': RECRUITING,
  'POST /api/candidates/{id}/offers': RECRUITING,
  // A hiring manager reads the offers and placements of their requisitions (lib/domain/offers.ts,
  // placements.ts); interviewers never do.
  'GET /api/v1/candidates/{id}/offers': ON_THE_TEAM,
  'GET /api/candidates/{id}/offers': ON_THE_TEAM,
  'GET /api/v1/offers/{id}': ON_THE_TEAM,
  'GET /api/offers/{id}': ON_THE_TEAM,
  'PATCH /api/v1/offers/{id}': RECRUITING,
  'PATCH /api/offers/{id}': RECRUITING,
  'POST /api/v1/offers/{id}/status': RECRUITING,
  'POST /api/offers/{id}/status': RECRUITING,
  // A hiring manager may be an approver: the console shows them the chain beside the offer.
  'GET /api/settings/offer-approvals': ON_THE_TEAM,
  'GET /api/v1/placements': ON_THE_TEAM,
  'GET /api/placements': ON_THE_TEAM,
  'GET /api/v1/placements/{id}': ON_THE_TEAM,
  'GET /api/placements/{id}': ON_THE_TEAM,
  'PATCH /api/v1/placements/{id}': RECRUITING,
  'PATCH /api/placements/{id}': RECRUITING,
  'POST /api/v1/placements/{id}/cancel': RECRUITING,
  'POST /api/placements/{id}/cancel': RECRUITING,
  'POST /api/v1/candidates/{id}/placement': RECRUITING,
  'POST /api/candidates/{id}/placement': RECRUITING,
  'POST /api/v1/people/{id}/notes': ON_THE_TEAM,
  'POST /api/people/{id}/notes': ON_THE_TEAM,
  'GET /api/v1/people/{id}/notes': ALL,
  'GET /api/people/{id}/notes': ALL,
  'GET /api/v1/people/{id}/notes/{note_id}': ALL,
  'GET /api/people/{id}/notes/{note_id}': ALL,
  'PATCH /api/v1/people/{id}/notes/{note_id}': ON_THE_TEAM,
  'PATCH /api/people/{id}/notes/{note_id}': ON_THE_TEAM,
  'DELETE /api/v1/people/{id}/notes/{note_id}': ON_THE_TEAM,
  'DELETE /api/people/{id}/notes/{note_id}': ON_THE_TEAM,
  'GET /api/v1/people/{id}/activity': ALL,
  'GET /api/people/{id}/activity': ALL,
  'POST /api/v1/uploads': RECRUITING,
  'POST /api/uploads': RECRUITING,
  'GET /api/v1/uploads/limits': RECRUITING,
  'GET /api/uploads/limits': RECRUITING,
  'GET /api/v1/uploads/{id}': RECRUITING,
  'GET /api/uploads/{id}': RECRUITING,
  'POST /api/v1/people/{id}/files': RECRUITING,
  'POST /api/people/{id}/files': RECRUITING,
  'GET /api/v1/people/{id}/files': ALL,
  'GET /api/people/{id}/files': ALL,
  'GET /api/v1/people/{id}/files/{file_id}': ALL,
  'GET /api/people/{id}/files/{file_id}': ALL,
  'GET /api/v1/people/{id}/files/{file_id}/text': ALL,
  'GET /api/people/{id}/files/{file_id}/text': ALL,
  'GET /api/v1/people/{id}/files/{file_id}/download': ALL,
  'GET /api/people/{id}/files/{file_id}/download': ALL,
  'DELETE /api/v1/people/{id}/files/{file_id}': RECRUITING,
  'DELETE /api/people/{id}/files/{file_id}': RECRUITING,
  'PUT /api/settings/offer-approvals': ADMIN,
  // An approver decides as themselves; the chain names who may (lib/domain/offer-approvals.ts).
  'POST /api/offers/{id}/approvals': ON_THE_TEAM,
  // Every member has a list; it holds only the offers they may read (lib/domain/offer-awaiting-list.ts).
  'GET /api/offers/approvals': ALL,
  // A member's own inbox: what it answers is limited to the notes they may see.
  'GET /api/mentions': ALL,
  'POST /api/mentions/{id}/read': ALL,
  // Two-factor: everyone signs in and keeps their own; the policy and a reset are admins'.
  'POST /api/session/two-factor': ALL,
  'GET /api/account/two-factor': ALL,
  'POST /api/account/two-factor': ALL,
  'POST /api/account/two-factor/confirm': ALL,
  'POST /api/account/two-factor/disable': ALL,
  'GET /api/settings/two-factor': ALL,
  'PUT /api/settings/two-factor': ADMIN,
  'GET /api/settings/careers': ADMIN,
  'PUT /api/settings/careers': ADMIN,
  'POST /api/members/{id}/reset-two-factor': ADMIN,
} as const satisfies Readonly<Record<string, readonly Role[]>>;

/** A route's name in the permission table: `METHOD path`, as lib/routes.ts spells them. */
export type RouteName = keyof typeof ROUTE_ROLES;

/** Whether someone with this role may call the route (by its `METHOD path` name). */
export const may = (role: Role, route: string): boolean =>
  ((ROUTE_ROLES as Readonly<Record<string, readonly Role[]>>)[route] ?? []).includes(role);

/** Every scope but `*`: what `*` stands for today. */
const NAMED_SCOPES = SCOPES.filter((s) => s !== '*');

/**
 * The scopes each role may put on a token: those of the token routes the role may call (a test
 * holds the two together). Erasure and `*` (which also grants scopes added later) are for admins.
 * A scope only opens a route the table lets the creator's role call, so a hiring manager's
 * `requisitions:write` changes a status but edits no requisition, and their `candidates:write`
 * writes notes but edits no candidate.
 */
const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  admin: SCOPES,
  recruiter: NAMED_SCOPES.filter((s) => s !== 'candidates:erase'),
  hiring_manager: [
    'candidates:read',
    'candidates:write',
    'requisitions:read',
    'requisitions:write',
    'pipeline:read',
    'pipeline:write',
    'interviews:read',
    'scorecards:read',
    'scorecards:write',
    'offers:read',
  ],
  interviewer: ['candidates:read', 'interviews:read', 'scorecards:read', 'scorecards:write'],
};

/** The scopes a token made by someone with this role may hold. */
export const scopesOf = (role: Role): readonly Scope[] => ROLE_SCOPES[role];

/** The asked scopes that the role may not grant, in the order asked; empty when all are allowed. */
export const scopesBeyond = (role: Role, scopes: readonly Scope[]): Scope[] => scopes.filter((s) => !ROLE_SCOPES[role].includes(s));

/**
 * A token's scopes cut down to what the role may hold, in the token's order: `*` becomes the
 * role's named scopes when the role may not hold `*` itself. Empty when nothing is left.
 */
export function narrowTo(role: Role, scopes: readonly Scope[]): Scope[] {
  const allowed = ROLE_SCOPES[role];
  const wanted = scopes.includes('*') && !allowed.includes('*') ? [...new Set([...scopes, ...NAMED_SCOPES])] : scopes;
  return wanted.filter((s) => allowed.includes(s));
}

/** A change from one role to another takes away some scope: the user's tokens must be narrowed. */
export const narrows = (from: Role, to: Role): boolean => scopesBeyond(to, ROLE_SCOPES[from]).length > 0;

/**
 * Whether someone with this role may revoke a token: their own personal token always; someone
 * else's, or a workspace token (whoever made it), only as an admin.
 */
export const mayRevoke = (role: Role, userId: string, createdBy: string | undefined, kind: TokenKind = 'personal'): boolean =>
  role === 'admin' || (kind === 'personal' && createdBy !== undefined && createdBy === userId);
