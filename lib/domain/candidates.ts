/** Candidate rules: creation, listing with exact counts, and stage moves. */
import { NotFoundError, RequisitionNotOpenError, TooManyRequestsError, ValidationError } from '../errors';
import { applicationAnswer, screeningAnswer, screeningOf } from '../store/screening';
import { decodeCursor, encodeCursor } from './cursor';
import { actorOf, auditBy, type Principal } from './principal';
import { candidate } from '../entities/candidate';
import { auditChanges } from '../entity';
import { newId, nowIso } from '../ids';
import type {
  Candidate,
  CandidateDetail,
  ChangeStageBody,
  CreateCandidateBody,
  CreatedCandidate,
  ListCandidatesQuery,
  ListedCandidate,
  StageChange,
  StageStay,
  UpdateCandidateBody,
} from '../schemas';
import { getCandidate as getCandidateItem, toCandidate, toListedCandidate, type CandidateRecord } from '../store/candidates';
import { insertPersonCandidate, moveCandidate, updateCandidateProfile } from './candidate-writes';
import { claimOwner } from '../store/people';
import type { ProfilePatch } from './candidate-rules';
import { decideRejection, needsRejectionSettings, rejectionSettingsOf } from './rejection-rules';
import {
  candidatePageKey,
  queryCandidates,
  queryCandidatesAfter,
  queryFilteredCandidates,
  type CandidateQuery,
} from '../store/candidate-lists';
import { releaseLease, takeLease } from '../store/leases';
import { DEEP_OFFSET, DEEP_PAGES_AT_ONCE, type Stage } from '../model';
import { timeLeftMs } from '../time-budget';
import { queryWords, searchCandidates, searchPartition, leadWord } from '../store/search';
import { queryHistory, type StageMove } from '../store/stage-history';
import { getRequisition, reqStageCount } from '../store/requisitions';
import { getStats, getStatsItem } from '../store/stats';
import { maySee, seesAll, viewerOf, withoutHiddenFields, type Viewer } from './visibility';
import { assignmentsOf } from './assignments';
import { limitedCandidatePage } from './visible-lists';

export async function createCandidate(p: Principal, input: CreateCandidateBody): Promise<CreatedCandidate> {
  const { tenantId } = p;
  // The requisition and the email's claim (match or create: the person who owns the email) at once.
  const [req, owner] = await Promise.all([
    input.req_id ? openRequisition(tenantId, input.req_id) : undefined,
    input.email ? claimOwner(tenantId, input.email) : undefined,
  ]);
  const now = nowIso();
  const record: CandidateRecord = {
    id: newId(),
    // The body holds the declaration's create fields, and only them (lib/entities/candidate.ts).
    ...input,
    source: p.kind === 'token' ? 'api' : 'console',
    // Denormalized so lists and stuck alerts need no second read.
    req_title: req?.title,
    created_at: now,
    updated_at: now,
    stage_entered_at: now,
  };
  const audit = auditBy(p, 'candidate.created', { type: 'candidate', id: record.id }, auditChanges(candidate, undefined, { ...record }));
  const written = await insertPersonCandidate(tenantId, record, owner, req, audit);
  const { updated_at: _u, ...created } = toCandidate(written as unknown as Record<string, unknown>);
  return created;
}

/**
 * The requisition a candidate is added or moved to: it must exist in the tenant (else a 400 on
 * req_id) and be open (checked here when `mustBeOpen`; the write checks it again in its own
 * condition, and only when the candidate really changes requisition).
 */
async function openRequisition(tenantId: string, reqId: string, mustBeOpen = true) {
  const req = await getRequisition(tenantId, reqId);
  if (!req) throw new ValidationError('req_id names no requisition in this workspace', { field: 'req_id' });
  if (mustBeOpen && req.status !== 'open') throw new RequisitionNotOpenError(req.status);
  return req;
}

export interface CandidatePage {
  items: ListedCandidate[];
  count: number;
  offset: number;
  limit: number;
  next_cursor: string | null;
}

/** A list query with its stage as the store reads it: `rejected=true` is the rejected stage. */
type ListQuery = Omit<ListCandidatesQuery, 'stage' | 'rejected'> & { stage?: Stage };

function listQuery({ rejected, ...q }: ListCandidatesQuery): ListQuery {
  if (rejected === undefined) return q;
  if (q.stage !== undefined)
    throw new ValidationError('rejected cannot be combined with stage: the rejected are a stage of their own', { field: 'rejected' });
  return { ...q, stage: 'rejected' };
}

export async function listCandidates(p: Principal, input: ListCandidatesQuery): Promise<CandidatePage> {
  const q = listQuery(input);
  const v = viewerOf(p);
  if (!seesAll(v)) return limitedCandidatePage(p.tenantId, v, q, () => wholeList(p, q));
  return wholeList(p, q);
}

async function wholeList(p: Principal, q: ListQuery): Promise<CandidatePage> {
  const { tenantId } = p;
  if (q.source !== undefined && (q.q !== undefined || q.updated_after !== undefined))
    throw new ValidationError('source cannot be combined with q or updated_after: filter by source with stage, req_id or rejected', {
      field: 'source',
    });
  if (q.q !== undefined) return search(tenantId, q, q.q);
  if (q.updated_after !== undefined) return listChanges(tenantId, q, q.updated_after);
  const source = q.source !== undefined ? { source: q.source } : {};
  const query: CandidateQuery = q.req_id
    ? { kind: 'requisition', reqId: q.req_id, stage: q.stage, ...source }
    : q.stage
      ? { kind: 'stage', stage: q.stage, ...source }
      : { kind: 'all', ...source };
  // The count comes from counters kept exact by every write, read alongside the page.
  const countOf = async () => {
    if (q.req_id) {
      const req = await getRequisition(tenantId, q.req_id);
      if (!req) throw new NotFoundError('requisition', { field: 'req_id' });
      return reqStageCount(req, q.stage);
    }
    const stats = await getStats(tenantId);
    return q.stage ? stats.stage(q.stage) : stats.total;
  };
  // A cursor is bound to the tenant and the filters; its key is checked before any read.
  const filters = [q.stage ?? null, q.req_id ?? null, ...(q.source !== undefined ? [q.source] : [])];
  const scope = { tenantId, filters: JSON.stringify(filters), key: candidatePageKey(tenantId, query) };
  if (q.cursor !== undefined && q.offset > 0) throw new ValidationError('use either cursor or offset, not both');
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  if (q.source !== undefined) return sourcePage(tenantId, q, query, scope, startKey);
  const lease = q.offset > DEEP_OFFSET ? await deepPageLease(p) : undefined;
  try {
    const [count, items] = await Promise.all([
      countOf(),
      startKey ? queryCandidatesAfter(tenantId, query, startKey, q.limit) : queryCandidates(tenantId, query, q.offset, q.limit),
    ]);
    // A full page may have more after it: its last item's key is where the next one starts.
    const last = items.length === q.limit ? items.at(-1) : undefined;
    const next_cursor = last ? encodeCursor(scope, last) : null;
    return { items: items.map(toListedCandidate), count, offset: q.offset, limit: q.limit, next_cursor };
  } finally {
    if (lease) await releaseLease(lease);
  }
}

/**
 * A page of one source's candidates: the list's own Query filtered on `source` (no counter counts
 * a source, so `count` is the page's length, as for a search). It reads a bounded number of
 * candidates, so a page may be short, or empty, and still carry a next_cursor; it pages by cursor.
 */
async function sourcePage(
  tenantId: string,
  q: ListQuery,
  query: CandidateQuery,
  scope: Parameters<typeof encodeCursor>[0],
  startKey: Record<string, string> | undefined,
): Promise<CandidatePage> {
  if (q.offset > 0) throw new ValidationError('a list filtered by source pages with next_cursor, not offset', { field: 'offset' });
  if (q.req_id && !(await getRequisition(tenantId, q.req_id))) throw new NotFoundError('requisition', { field: 'req_id' });
  const { items, next } = await queryFilteredCandidates(tenantId, query, q.limit, startKey);
  return {
    items: items.map(toListedCandidate),
    count: items.length,
    offset: 0,
    limit: q.limit,
    next_cursor: next ? encodeCursor(scope, next) : null,
  };
}

/** A deep page's hold outside an API request's time budget (scripts): a Lambda's longest route timeout. */
const DEEP_PAGE_HOLD_MS = 30_000;

/**
 * A slot for a deep offset page, whose skip reads every candidate it passes: one caller (an API
 * token, a member) runs at most DEEP_PAGES_AT_ONCE of them at once, so parallel deep pages cannot
 * take the table's reads from everyone else. Held for the request's time at most.
 */
async function deepPageLease(p: Principal) {
  const holder = p.kind === 'token' ? `token#${p.tokenId}` : `user#${p.userId}`;
  const left = timeLeftMs();
  const lease = await takeLease(p.tenantId, holder, DEEP_PAGES_AT_ONCE, Number.isFinite(left) ? left : DEEP_PAGE_HOLD_MS);
  if (lease) return lease;
  throw new TooManyRequestsError(
    `at most ${DEEP_PAGES_AT_ONCE} pages with an offset over ${DEEP_OFFSET} may run at once per API token or member; page with next_cursor instead (one read per page at any depth, no such limit), or retry after the Retry-After seconds`,
    1_000,
    { code: 'rate_limited', field: 'offset' },
  );
}

/**
 * The sync feed: candidates created or changed at or after `updatedAfter` (inclusive, like
 * Greenhouse Harvest's updated_after, so resuming from the last updated_at seen never misses a
 * change made in that same millisecond), oldest change first, one Query on GSI4 per page. A
 * candidate changed while a sync pages moves to the end of the feed and is seen again there.
 * `count` is the page's length: the feed's size is not kept, and counting it would read it all.
 */
async function listChanges(tenantId: string, q: ListQuery, updatedAfter: string): Promise<CandidatePage> {
  if (q.stage !== undefined || q.req_id !== undefined) {
    throw new ValidationError('updated_after cannot be combined with stage or req_id; filter the synced candidates on your side');
  }
  if (q.offset > 0) throw new ValidationError('updated_after pages with cursor, not offset');
  // Stored timestamps are toISOString() values: compare in that form, whatever offset was given.
  const since = new Date(updatedAfter).toISOString();
  const query: CandidateQuery = { kind: 'changes', since };
  const scope = { tenantId, filters: JSON.stringify([null, null, since]), key: candidatePageKey(tenantId, query) };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  const items = startKey
    ? await queryCandidatesAfter(tenantId, query, startKey, q.limit)
    : await queryCandidates(tenantId, query, 0, q.limit);
  const last = items.length === q.limit ? items.at(-1) : undefined;
  const next_cursor = last ? encodeCursor(scope, last) : null;
  return { items: items.map(toListedCandidate), count: items.length, offset: 0, limit: q.limit, next_cursor };
}

/**
 * Search (`q`): one Query on the search index per call, at most two per page, however many
 * candidates the workspace has. Candidates come in matched word then id order, each once.
 * `count` is the page's length: counting every match would read them all. A page the filters
 * leave short may still have a `next_cursor`: the index goes on after it.
 */
async function search(tenantId: string, q: ListQuery, text: string): Promise<CandidatePage> {
  if (q.updated_after !== undefined) {
    throw new ValidationError('q cannot be combined with updated_after; search, or sync, one at a time', { field: 'q' });
  }
  if (q.offset > 0)
    throw new ValidationError('q pages with cursor, not offset: pass the next_cursor of the previous page', { field: 'offset' });
  const words = queryWords(text);
  const lead = leadWord(words);
  const escaped = lead.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const scope = {
    tenantId,
    filters: JSON.stringify([q.stage ?? null, q.req_id ?? null, null, words]),
    key: {
      attrs: ['PK', 'SK'],
      partitions: { PK: searchPartition(tenantId, lead) },
      sortKey: new RegExp(`^${escaped}.*#[0-9a-f-]{36}$`, 'su'),
    },
  };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  const { items, lastKey } = await searchCandidates(tenantId, { words, stage: q.stage, reqId: q.req_id }, q.limit, startKey);
  const next_cursor = lastKey ? encodeCursor(scope, lastKey) : null;
  return { items: items.map(toListedCandidate), count: items.length, offset: 0, limit: q.limit, next_cursor };
}

/**
 * Any stage may move to any stage; a move to the current stage changes nothing. A real move
 * records who made it in the candidate's stage history. With `from_stage`, a candidate no longer
 * in that stage is a 409 naming its current stage (Greenhouse v3's guard against stale moves).
 * `gate` refuses moves a workspace setting forbids; it runs once the caller may see the candidate
 * (passed in by the handler, so the other candidate functions do not bundle it).
 */
export async function changeStage(
  p: Principal,
  input: ChangeStageBody,
  gate?: (tenantId: string, candidateId: string, stage: ChangeStageBody['stage']) => Promise<void>,
): Promise<StageChange> {
  // Someone who does not see every candidate moves only those they see: two reads more for them.
  const v = viewerOf(p);
  if (!seesAll(v)) await seenCandidate(p.tenantId, v, input.candidate_id);
  await gate?.(p.tenantId, input.candidate_id, input.stage);
  // Only a move into `rejected` reads the workspace's reasons (one GetItem of its STATS item).
  const settings = needsRejectionSettings(input) ? rejectionSettingsOf((await getStatsItem(p.tenantId)).item) : undefined;
  const decided = decideRejection(input, settings);
  if ('refuse' in decided) throw decided.refuse;
  const { before, after } = await moveCandidate(p.tenantId, input.candidate_id, input.stage, nowIso, {
    actor: actorOf(p),
    fromStage: input.from_stage,
    rejection: decided.rejection,
    audit: auditBy(p, 'candidate.stage_changed', { type: 'candidate', id: input.candidate_id }),
  });
  const c = toCandidate(after ?? before);
  return { id: c.id, name: c.name, stage: c.stage, updated_at: c.updated_at };
}

/**
 * The stays a candidate's moves describe, oldest first. The first stay starts at creation; a
 * candidate never moved has been in its stage since it entered it.
 */
export function stageStays(c: Candidate, moves: StageMove[]): StageStay[] {
  const stays: StageStay[] = [
    {
      stage: moves[0]?.from_stage ?? c.stage,
      from_stage: null,
      entered_at: moves.length ? c.created_at : c.stage_entered_at,
      exited_at: null,
      actor: null,
    },
  ];
  for (const m of moves) {
    stays.at(-1)!.exited_at = m.at;
    stays.push({
      stage: m.to_stage,
      from_stage: m.from_stage,
      entered_at: m.at,
      exited_at: null,
      actor: m.actor,
      ...(m.reason && { rejection_reason: m.reason }),
    });
  }
  return stays;
}

/** One candidate with its stage history: a GetItem and a Query, in parallel. */
export async function getCandidate(p: Principal, id: string): Promise<CandidateDetail> {
  const v = viewerOf(p);
  const [item, history] = await Promise.all([getCandidateItem(p.tenantId, id), queryHistory(p.tenantId, id)]);
  if (!item || !(seesAll(v) || (await sees(p.tenantId, v, item)))) throw new NotFoundError('candidate');
  const candidate = withoutHiddenFields(v, toListedCandidate(item));
  return {
    ...candidate,
    stage_history: stageStays(candidate, history.moves),
    requisition_history: history.transfers.map(({ candidate_id: _c, ...t }) => ({ kind: 'transferred' as const, ...t })),
    // The reasons quote the answers: not for an interviewer, who sees no more than they need.
    screening: v.role === 'interviewer' ? null : screeningAnswer(screeningOf(item)),
    // The answers are the applicant's own words: like the screening, not for an interviewer.
    application: v.role === 'interviewer' ? null : applicationAnswer(item),
  };
}

/**
 * Whether a limited viewer sees this candidate: for a hiring manager its requisition's team (one
 * GetItem), for an interviewer their bookings (one Query).
 */
async function sees(tenantId: string, v: Viewer, item: Record<string, unknown>): Promise<boolean> {
  const reqId = typeof item.req_id === 'string' ? item.req_id : undefined;
  const requisition = reqId && v.role === 'hiring_manager' ? await getRequisition(tenantId, reqId) : undefined;
  return maySee(v, { kind: 'candidate', id: String(item.id), requisition }, await assignmentsOf(tenantId, v));
}

/** A candidate a limited viewer sees, or the 404 of one that does not exist. */
async function seenCandidate(tenantId: string, v: Viewer, id: string): Promise<void> {
  const item = await getCandidateItem(tenantId, id);
  if (!item || !(await sees(tenantId, v, item))) throw new NotFoundError('candidate');
}

/**
 * Change a candidate's profile. A new requisition must exist in the tenant; its title is copied
 * onto the candidate as on create. A change to nothing writes nothing.
 */
export async function updateCandidate(p: Principal, id: string, input: UpdateCandidateBody): Promise<Candidate> {
  const { tenantId } = p;
  const { req_id, ...fields } = input;
  const patch: ProfilePatch = { ...fields };
  let reqSeen: Record<string, unknown> | undefined;
  if (req_id === null) patch.requisition = null;
  else if (req_id !== undefined) {
    const req = await openRequisition(tenantId, req_id, false);
    patch.requisition = { id: req.id, title: req.title };
    reqSeen = req;
  }
  const { before, after } = await updateCandidateProfile(tenantId, id, patch, {
    reqSeen,
    audit: auditBy(p, 'candidate.updated', { type: 'candidate', id }),
  });
  return toCandidate(after ?? before);
}
