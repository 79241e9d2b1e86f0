/**
 * The offers waiting for the signed-in member's decision. The API has no list of offers across a
 * workspace, so this reads the approval chain first (one call: a member named in no step waits for
 * nothing), then the candidates a page of 200 at a time, each candidate's offers, and each offer
 * pending approval in full (its decisions): 1 + ceil(C / 200) + C + P calls for C candidates and
 * P offers pending approval, four at a time. The header's count reuses one scan for a minute.
 */
import { api, unwrap } from './api/client';
import { awaits, fetchChain, fetchOffer, fetchOffers, isApprover, type OfferDetail } from './offer-data';

export interface Awaiting {
  offer: OfferDetail;
  candidate: { id: string; name: string; req_title: string | null };
}
export interface ScanResult {
  approver: boolean;
  awaiting: Awaiting[];
  /** API calls the scan made. */
  calls: number;
}

const WORKERS = 4;

async function pool<T, R>(items: T[], fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const work = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WORKERS, items.length) }, work));
  return out;
}

export async function scanAwaiting(userId: string): Promise<ScanResult> {
  let calls = 1;
  const chain = await fetchChain();
  if (!isApprover(chain, userId)) return { approver: false, awaiting: [], calls };
  const candidates: Awaiting['candidate'][] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(api.GET('/api/candidates', { params: { query: { limit: 200, ...(cursor && { cursor }) } } }));
    calls++;
    for (const c of page.data) candidates.push({ id: c.id, name: c.name ?? '', req_title: c.req_title ?? null });
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  const offers = await pool(candidates, async (c) => {
    calls++;
    return (await fetchOffers(c.id)).filter((o) => o.status === 'pending_approval').map((o) => ({ id: o.id, candidate: c }));
  });
  const pending = offers.flat();
  const detailed = await pool(pending, async (p) => {
    calls++;
    return { offer: await fetchOffer(p.id), candidate: p.candidate };
  });
  return { approver: true, awaiting: detailed.filter((d) => awaits(chain, d.offer, userId)), calls };
}

let cached: { userId: string; at: number; result: Promise<ScanResult> } | undefined;
const FRESH_MS = 60_000;

/** The scan, reused for a minute (the header reads it on every navigation). */
export function awaitingCount(userId: string): Promise<ScanResult> {
  if (!cached || cached.userId !== userId || Date.now() - cached.at > FRESH_MS) {
    const result = scanAwaiting(userId);
    cached = { userId, at: Date.now(), result };
    result.catch(() => {
      if (cached?.result === result) cached = undefined;
    });
  }
  return cached.result;
}

/** After a decision: the next count scans again, and the header's count reads it now. */
export function forgetAwaiting() {
  cached = undefined;
  dispatchEvent(new Event('offer-decided'));
}
