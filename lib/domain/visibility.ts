/**
 * What a caller may see, as one pure rule: `maySee(viewer, record)`. Admins and recruiters see
 * every record of their workspace; a hiring manager sees the requisitions whose team names them
 * and those requisitions' candidates; an interviewer sees the candidates they are assigned to
 * interview, and no requisition. The lists, counts, board, search, summaries and direct reads
 * all ask it (lib/domain/visible-lists.ts), so a hidden record is absent everywhere, and a direct
 * read of one is the 404 a record of another workspace is.
 */
import type { Role } from '../model';
import type { Principal } from './principal';

/** Who is looking: the role, and the user behind a session or a personal token. */
export interface Viewer {
  role: Role;
  userId?: string;
}

/**
 * The candidates an interviewer is assigned to interview: those of the interviews they are booked
 * on (lib/domain/assignments.ts loads them; cancelled interviews no longer count).
 */
export interface Assignments {
  candidateIds: ReadonlySet<string>;
}
export const NO_ASSIGNMENTS: Assignments = { candidateIds: new Set() };

/** A requisition's team, as its item holds it. */
export interface TeamRecord {
  hiring_manager_ids?: unknown;
  [attribute: string]: unknown;
}

export type SeenRecord =
  | { kind: 'requisition'; requisition: TeamRecord }
  /** A candidate, with the team of its requisition (undefined when it has none, or it is gone). */
  | { kind: 'candidate'; id: string; requisition: TeamRecord | undefined };

/** The viewer a principal is: a workspace token, or the admin CLI, sees as an admin. */
export function viewerOf(p: Principal | { kind: 'system' }): Viewer {
  if (p.kind === 'system') return { role: 'admin' };
  if (p.kind === 'session') return { role: p.role, userId: p.userId };
  return { role: p.role, ...(p.creator && { userId: p.creator.id }) };
}

/** The viewer sees every record of the workspace: no list needs limiting. */
export const seesAll = (v: Viewer): boolean => v.role === 'admin' || v.role === 'recruiter';

const onTeam = (v: Viewer, r: TeamRecord | undefined) =>
  v.userId !== undefined && Array.isArray(r?.hiring_manager_ids) && r.hiring_manager_ids.includes(v.userId);

export function maySee(v: Viewer, record: SeenRecord, assignments: Assignments = NO_ASSIGNMENTS): boolean {
  if (seesAll(v)) return true;
  if (v.role === 'hiring_manager') return onTeam(v, record.requisition);
  return record.kind === 'candidate' && assignments.candidateIds.has(record.id);
}

/** One of a person's candidates with its requisition's team, as `seenCandidateIds` reads them. */
export interface CandidateWithTeam {
  id: string;
  requisition: TeamRecord | undefined;
}

/**
 * Which of a person's records the viewer sees: `all` of them (admins, recruiters), or the person
 * through the candidates of theirs the viewer sees (`maySee` on each), and of the person's records
 * those not tied to a candidate plus those of a seen candidate. A viewer who sees none of the
 * person's candidates does not see the person.
 */
export type PersonSight = { all: true } | { all: false; candidateIds: ReadonlySet<string> };

export function personSightOf(
  v: Viewer,
  candidates: readonly CandidateWithTeam[],
  assignments: Assignments = NO_ASSIGNMENTS,
): PersonSight | undefined {
  if (seesAll(v)) return { all: true };
  const seen = candidates.filter((c) => maySee(v, { kind: 'candidate', id: c.id, requisition: c.requisition }, assignments));
  return seen.length ? { all: false, candidateIds: new Set(seen.map((c) => c.id)) } : undefined;
}

/** Whether a record of a seen person is shown: one tied to no candidate is, one tied to a candidate only if that candidate is seen. */
export const seesPersonRecord = (s: PersonSight, candidateId: unknown): boolean =>
  s.all || typeof candidateId !== 'string' || s.candidateIds.has(candidateId);

/** Fields a role is not shown of a candidate it sees: an interviewer never gets the phone. */
export const withoutHiddenFields = <C extends { phone?: string | null }>(v: Viewer, c: C): C =>
  v.role === 'interviewer' && c.phone !== undefined ? { ...c, phone: null } : c;
