/** Candidate rules: creation, listing with exact counts, and stage moves. */
import { NotFoundError } from '../errors';
import { newId, nowIso } from '../ids';
import type { CreateCandidateBody, CreatedCandidate, ChangeStageBody, ListCandidatesQuery, StageChange, Candidate } from '../schemas';
import {
  insertCandidate,
  moveCandidate,
  queryCandidates,
  toCandidate,
  type CandidateQuery,
  type CandidateRecord,
} from '../store/candidates';
import { getRequisition, reqStageCount } from '../store/requisitions';
import { getStats } from '../store/stats';

export async function createCandidate(tenantId: string, input: CreateCandidateBody): Promise<CreatedCandidate> {
  const req = input.req_id ? await getRequisition(tenantId, input.req_id) : undefined;
  if (input.req_id && !req) throw new NotFoundError('requisition');
  const now = nowIso();
  const record: CandidateRecord = {
    id: newId(),
    name: input.name,
    email: input.email,
    phone: input.phone,
    resume_url: input.resume_url,
    stage: input.stage,
    req_id: input.req_id,
    // Denormalized so lists and stuck alerts need no second read.
    req_title: req?.title,
    created_at: now,
    updated_at: now,
    stage_entered_at: now,
  };
  await insertCandidate(tenantId, record);
  const { updated_at: _u, ...created } = toCandidate(record as unknown as Record<string, unknown>);
  return created;
}

export interface CandidatePage {
  data: Candidate[];
  count: number;
  offset: number;
  limit: number;
}

export async function listCandidates(tenantId: string, q: ListCandidatesQuery): Promise<CandidatePage> {
  const query: CandidateQuery = q.req_id
    ? { kind: 'requisition', reqId: q.req_id, stage: q.stage }
    : q.stage
      ? { kind: 'stage', stage: q.stage }
      : { kind: 'all' };
  // The count comes from counters kept exact by every write, read alongside the page.
  const countOf = async () => {
    if (q.req_id) {
      const req = await getRequisition(tenantId, q.req_id);
      if (!req) throw new NotFoundError('requisition');
      return reqStageCount(req, q.stage);
    }
    const stats = await getStats(tenantId);
    return q.stage ? stats.stage(q.stage) : stats.total;
  };
  const [count, items] = await Promise.all([
    countOf(),
    queryCandidates(tenantId, query, q.offset, q.limit),
  ]);
  return { data: items.map(toCandidate), count, offset: q.offset, limit: q.limit };
}

/** Any stage may move to any stage; a move to the current stage changes nothing. */
export async function changeStage(tenantId: string, input: ChangeStageBody): Promise<StageChange> {
  const { before, after } = await moveCandidate(tenantId, input.candidate_id, input.stage, nowIso);
  const c = toCandidate(after ?? before);
  return { id: c.id, name: c.name, stage: c.stage, updated_at: c.updated_at };
}
