/**
 * The lists of a caller who does not see the whole workspace (a hiring manager, an interviewer:
 * lib/domain/visibility.ts). Everything starts from the requisitions they see, read by
 * `queryTeamRequisitions` (one Query per status partition, filtered on the team), at most
 * MAX_TEAM_REQUISITIONS of them. The candidate list is one Query per requisition seen on the
 * existing requisition index (or its board column with a stage), merged; its `count` is the sum of
 * those requisitions' own counters, so it counts only rows the caller may see.
 */
import { NotFoundError, ValidationError } from '../errors';
import type { Stage } from '../model';
import type { ListCandidatesQuery } from '../schemas';
import { queryCandidates } from '../store/candidate-lists';
import { toListedCandidate } from '../store/candidates';
import { getRequisition, queryTeamRequisitions, reqStageCount, type RequisitionItem } from '../store/requisitions';
import { assignedCandidatePage } from './assignments';
import { maySee, type Viewer, withoutHiddenFields } from './visibility';

/** The most requisitions a hiring manager's lists read: it bounds the Queries of one list. */
export const MAX_TEAM_REQUISITIONS = 50;

/** The requisitions the viewer sees: a hiring manager's team requisitions; none for anyone else limited. */
export async function visibleRequisitions(tenantId: string, v: Viewer): Promise<RequisitionItem[]> {
  if (v.role !== 'hiring_manager' || v.userId === undefined) return [];
  return queryTeamRequisitions(tenantId, v.userId, MAX_TEAM_REQUISITIONS);
}

/** A requisition the viewer may see, or the 404 of one that does not exist. */
export async function seenRequisition(tenantId: string, v: Viewer, id: string, field?: string): Promise<RequisitionItem> {
  const req = await getRequisition(tenantId, id);
  if (!req || !maySee(v, { kind: 'requisition', requisition: req })) throw new NotFoundError('requisition', field ? { field } : {});
  return req;
}

type Page = { items: ReturnType<typeof toListedCandidate>[]; count: number; offset: number; limit: number; next_cursor: string | null };

/**
 * The candidate list of a limited viewer. With `req_id`, the caller's own list runs once the
 * requisition is known to be seen (`whole`); a search or the change feed runs as `whole` too and
 * keeps only the rows of requisitions seen (`count` is the page's length there, as for everyone).
 * Otherwise the merged per-requisition Queries, paged by offset.
 */
/** A list query as the store reads it: `rejected=true` already turned into the rejected stage. */
type CandidateListQuery = Omit<ListCandidatesQuery, 'stage' | 'rejected'> & { stage?: Stage };

export async function limitedCandidatePage(tenantId: string, v: Viewer, q: CandidateListQuery, whole: () => Promise<Page>): Promise<Page> {
  if (v.role === 'interviewer') return assignedCandidatePage(tenantId, v, q);
  if (q.req_id !== undefined) {
    await seenRequisition(tenantId, v, q.req_id, 'req_id');
    return shown(v, await whole());
  }
  const reqs = await visibleRequisitions(tenantId, v);
  if (q.q !== undefined || q.updated_after !== undefined) {
    const seen = new Set(reqs.map((r) => r.id));
    const page = await whole();
    const items = page.items.filter((c) => c.req_id !== null && seen.has(c.req_id));
    return shown(v, { ...page, items, count: items.length });
  }
  if (q.cursor !== undefined)
    throw new ValidationError('a hiring manager pages their candidates by offset, or by cursor within one requisition (req_id)', {
      field: 'cursor',
    });
  const want = q.offset + q.limit;
  const source = q.source !== undefined ? { source: q.source } : {};
  const perReq = await Promise.all(
    reqs.map((r) => queryCandidates(tenantId, { kind: 'requisition', reqId: r.id, stage: q.stage, ...source }, 0, want)),
  );
  // Each partition comes newest first (by id, or by stage entry for a board column): merged the same way.
  const key = (c: Record<string, unknown>) => `${q.stage ? String(c.stage_entered_at ?? '') : ''}#${String(c.id)}`;
  const merged = perReq.flat().sort((a, b) => key(b).localeCompare(key(a)));
  const items = merged.slice(q.offset, want).map(toListedCandidate);
  // No counter counts a source: filtered, the count is what the page holds.
  const count = q.source !== undefined ? items.length : reqs.reduce((sum, r) => sum + reqStageCount(r, q.stage), 0);
  return shown(v, { items, count, offset: q.offset, limit: q.limit, next_cursor: null });
}

const shown = (v: Viewer, page: Page): Page => ({ ...page, items: page.items.map((c) => withoutHiddenFields(v, c)) });
