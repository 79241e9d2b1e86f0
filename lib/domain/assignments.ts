/**
 * The assignments `maySee` takes (lib/domain/visibility.ts): for an interviewer, the candidates of
 * the interviews they are booked on; for everyone else none are needed. And an interviewer's
 * candidate list, built from them.
 */
import type { ListCandidatesQuery } from '../schemas';
import type { Stage } from '../model';
import { assignedCandidateIds, getCandidateItems } from '../store/assignments';
import { toListedCandidate } from '../store/candidates';
import { NO_ASSIGNMENTS, withoutHiddenFields, type Assignments, type Viewer } from './visibility';

/** One Query of the interviewer's bookings; nothing to read for any other viewer. */
export async function assignmentsOf(tenantId: string, v: Viewer): Promise<Assignments> {
  if (v.role !== 'interviewer' || v.userId === undefined) return NO_ASSIGNMENTS;
  return { candidateIds: await assignedCandidateIds(tenantId, v.userId) };
}

type Query = Omit<ListCandidatesQuery, 'stage' | 'rejected'> & { stage?: Stage };
type Page = { items: ReturnType<typeof toListedCandidate>[]; count: number; offset: number; limit: number; next_cursor: string | null };

/**
 * An interviewer's candidate list: the candidates they are booked to interview (a handful, read
 * whole), newest first, with the list's filters applied to them and paged by offset; never a phone.
 */
export async function assignedCandidatePage(tenantId: string, v: Viewer, q: Query): Promise<Page> {
  const { candidateIds } = await assignmentsOf(tenantId, v);
  const items = (await getCandidateItems(tenantId, [...candidateIds]))
    .map(toListedCandidate)
    .filter((c) => q.stage === undefined || c.stage === q.stage)
    .filter((c) => q.req_id === undefined || c.req_id === q.req_id)
    .filter((c) => q.source === undefined || c.source === q.source)
    .filter((c) => q.updated_after === undefined || Date.parse(c.updated_at) > Date.parse(q.updated_after))
    .filter((c) => q.q === undefined || `${c.name} ${c.email ?? ''}`.toLowerCase().includes(q.q.toLowerCase()))
    .sort((a, b) => b.id.localeCompare(a.id));
  return {
    items: items.slice(q.offset, q.offset + q.limit).map((c) => withoutHiddenFields(v, c)),
    count: items.length,
    offset: q.offset,
    limit: q.limit,
    next_cursor: null,
  };
}

/** The one loader every people, notes, files and activity read asks (lib/domain/person-sight.ts). */
export const loadAssignments = assignmentsOf;
