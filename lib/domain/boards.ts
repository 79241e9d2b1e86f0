/**
 * The public board: a workspace's listed postings by careers slug, filtered and paged, and one of
 * them. Nothing of a workspace without a listed posting is exposed, and an unknown slug answers
 * exactly as such a workspace does (an empty page, a 404 for any job). The filters are pure
 * (`matchesBoardFilters`); answers carry an ETag of their content.
 */
import { createHash } from 'node:crypto';
import type { BoardJob, BoardJobDetail, BoardQuery } from '../api/boards';
import { checkTimeBudget } from '../time-budget';
import { publicPostingOf, queryBoard, tenantIdOfSlug, type PublicPosting } from '../store/postings';
import { publicPosting } from './postings';

/** Index items read per Query while filling a page, and at most this many Queries per request. */
const READ_PAGE = 100;
const MAX_READS = 10;

/** The job's page on the careers site. */
export const careersJobPath = (slug: string, id: string) => `/careers/${encodeURIComponent(slug)}/jobs/${id}`;

export function toBoardJob(slug: string, p: PublicPosting): BoardJob {
  const { posting } = p;
  return {
    id: posting.req_id,
    title: p.title,
    department: p.department,
    location: p.location,
    remote: posting.remote,
    remote_countries: posting.remote_countries,
    employment_type: p.employment_type as BoardJob['employment_type'],
    salary: posting.salary,
    published_at: posting.published_at ?? posting.created_at,
    updated_at: posting.updated_at,
    url: careersJobPath(slug, posting.req_id),
  };
}

export function toBoardJobDetail(slug: string, p: PublicPosting): BoardJobDetail {
  return {
    ...toBoardJob(slug, p),
    description: p.posting.description,
    questions: p.posting.questions.map((q) => ({
      id: q.id,
      type: q.type,
      label: q.label,
      required: q.required,
      ...(q.options && { options: q.options }),
    })),
    cv: p.posting.cv,
  };
}

/** Lowercase, accents off: "Zürich" finds "zurich". */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Whether a listed job passes the board's filters (each one given must hold). */
export function matchesBoardFilters(
  job: Pick<BoardJob, 'title' | 'department' | 'location' | 'remote'>,
  q: Omit<BoardQuery, 'cursor' | 'limit'>,
): boolean {
  if (q.remote && job.remote !== q.remote) return false;
  if (q.department && fold(job.department ?? '') !== fold(q.department)) return false;
  if (q.location && !fold(job.location ?? '').includes(fold(q.location))) return false;
  if (q.q) {
    const hay = fold([job.title, job.department, job.location].filter(Boolean).join(' '));
    if (
      !fold(q.q)
        .split(/\s+/)
        .filter(Boolean)
        .every((w) => hay.includes(w))
    )
      return false;
  }
  return true;
}

/** A strong ETag of an answer's content. */
export const contentEtag = (body: unknown) => `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;

/**
 * A page of the board: index pages read in order until `limit` jobs pass the filters (or the
 * index ends, or MAX_READS pages were read: then the cursor says where to go on). `next_cursor`
 * is null on the last page.
 */
export async function listBoardJobs(slug: string, q: BoardQuery): Promise<{ data: BoardJob[]; next_cursor: string | null }> {
  const tenantId = await tenantIdOfSlug(slug);
  if (!tenantId) return { data: [], next_cursor: null };
  const out: BoardJob[] = [];
  let after = q.cursor;
  for (let read = 0; read < MAX_READS; read++) {
    if (read) checkTimeBudget();
    const { items, more } = await queryBoard(tenantId, READ_PAGE, after);
    for (let i = 0; i < items.length; i++) {
      const job = toBoardJob(slug, publicPostingOf(items[i]!));
      after = job.id;
      if (!matchesBoardFilters(job, q)) continue;
      out.push(job);
      if (out.length === q.limit) return { data: out, next_cursor: i < items.length - 1 || more ? job.id : null };
    }
    if (!more) return { data: out, next_cursor: null };
  }
  return { data: out, next_cursor: after ?? null };
}

/** One listed job; undefined for an unknown slug or id, an unpublished posting or a requisition not open. */
export async function getBoardJob(slug: string, id: string): Promise<BoardJobDetail | undefined> {
  const found = await publicPosting(slug, id);
  return found && toBoardJobDetail(slug, found);
}
