/**
 * What the careers pages show: the workspace's brand and its listed jobs (the board's reads,
 * lib/domain/boards.ts). A workspace with no listed job shows nothing, not even its name: its
 * list answers as an unknown slug does.
 */
import type { BoardJob, BoardJobDetail } from '../api/boards';
import type { CareersBrand } from '../careers/page';
import { getCareersSettings } from '../store/careers';
import { tenantIdOfSlug } from '../store/postings';
import { getBoardJob, listBoardJobs } from './boards';

/** Jobs on one careers page (the board's maximum). */
const PAGE_SIZE = 100;

async function brandOf(tenantId: string): Promise<CareersBrand> {
  const s = await getCareersSettings(tenantId);
  return { name: s?.careers_name ?? s?.name ?? '', logo_url: s?.careers_logo_url ?? null, privacy_url: s?.careers_privacy_url ?? null };
}

export async function careersList(
  slug: string,
  cursor: string | undefined,
): Promise<{ brand: CareersBrand; jobs: BoardJob[]; next: string | null } | undefined> {
  const tenantId = await tenantIdOfSlug(slug);
  if (!tenantId) return undefined;
  const [brand, page] = await Promise.all([brandOf(tenantId), listBoardJobs(slug, { limit: PAGE_SIZE, cursor })]);
  return page.data.length ? { brand, jobs: page.data, next: page.next_cursor } : undefined;
}

export async function careersJob(slug: string, id: string): Promise<{ brand: CareersBrand; job: BoardJobDetail } | undefined> {
  const tenantId = await tenantIdOfSlug(slug);
  if (!tenantId) return undefined;
  const [brand, job] = await Promise.all([brandOf(tenantId), getBoardJob(slug, id)]);
  return job && { brand, job };
}
