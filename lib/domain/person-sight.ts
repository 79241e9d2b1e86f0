/**
 * What a caller sees of one person, read once per request by every people, notes, files and
 * activity route: the person exists in the workspace, and (for a viewer who does not see the whole
 * workspace) which of their candidates the viewer sees (lib/domain/visibility.ts personSightOf).
 * A person the viewer does not see is the 404 of a person that does not exist.
 *
 * Admins and recruiters pay what they paid before (one GetItem, keys only); a hiring manager or an
 * interviewer one Query of the person's candidates and one GetItem per requisition they are on (at
 * most MAX_CANDIDATES_PER_PERSON).
 */
import { NotFoundError } from '../errors';
import { personExists } from '../store/notes';
import { type PersonCandidate, queryPersonCandidates } from '../store/people';
import { getRequisition } from '../store/requisitions';
import { loadAssignments } from './assignments';
import type { Principal } from './principal';
import type { Role } from '../model';
import {
  type Assignments,
  type CandidateWithTeam,
  type PersonSight,
  personSightOf,
  seesAll,
  seesPersonRecord,
  type Viewer,
  viewerOf,
} from './visibility';

export async function seenPerson(p: Principal, personId: string, assignments?: Assignments): Promise<PersonSight> {
  const v = viewerOf(p);
  if (seesAll(v)) {
    if (!(await personExists(p.tenantId, personId))) throw new NotFoundError('person');
    return { all: true };
  }
  return sightAmong(p, v, await queryPersonCandidates(p.tenantId, personId), assignments);
}

/** The person's candidates with their requisitions' teams (none read when `teams` is false). */
async function withTeams(tenantId: string, candidates: readonly PersonCandidate[], teams: boolean): Promise<CandidateWithTeam[]> {
  const reqIds = teams ? [...new Set(candidates.flatMap((c) => (c.req_id ? [c.req_id] : [])))] : [];
  const reqs = new Map(await Promise.all(reqIds.map(async (id) => [id, await getRequisition(tenantId, id)] as const)));
  return candidates.map((c) => ({ id: c.id, requisition: c.req_id ? reqs.get(c.req_id) : undefined }));
}

/** The sight of a limited viewer among the person's candidates (as read): 404 when they see none. */
export async function sightAmong(
  p: Principal,
  v: Viewer,
  candidates: readonly PersonCandidate[],
  assignments?: Assignments,
): Promise<PersonSight> {
  // An interviewer's sight is their assignments alone: no requisition is read for it.
  const [given, teamed] = await Promise.all([
    assignments ?? loadAssignments(p.tenantId, v),
    withTeams(p.tenantId, candidates, v.role !== 'interviewer'),
  ]);
  const sight = personSightOf(v, teamed, given);
  if (!sight) throw new NotFoundError('person');
  return sight;
}

/**
 * Which of these members would see a note on the person about `candidateId` (or about no
 * candidate): a mention never grants sight, so a note mentions only them. Nothing is read when
 * every member named sees the whole workspace.
 */
export async function membersWhoSee(
  tenantId: string,
  personId: string,
  members: readonly { id: string; role: Role }[],
  candidateId: string | undefined,
): Promise<Set<string>> {
  const limited = members.filter((m) => !seesAll({ role: m.role }));
  const seeing = new Set(members.filter((m) => seesAll({ role: m.role })).map((m) => m.id));
  if (!limited.length) return seeing;
  const teamed = await withTeams(tenantId, await queryPersonCandidates(tenantId, personId), true);
  for (const m of limited) {
    const v: Viewer = { role: m.role, userId: m.id };
    const sight = personSightOf(v, teamed, await loadAssignments(tenantId, v));
    if (sight && seesPersonRecord(sight, candidateId)) seeing.add(m.id);
  }
  return seeing;
}
