/**
 * The idempotency record's answer as an erasure leaves it. Apart from the copy sweep (scrub.ts)
 * because every idempotent function's store (idempotency.ts) needs it, and the sweep's entity
 * declarations would weigh on each of their bundles.
 */
import { candidate } from '../entities/candidate';
import { offer } from '../entities/offer';
import { scrubbed as scrubbedCopy } from '../entity';

/**
 * The answer an idempotency record keeps (an API Gateway result: status, headers, JSON body),
 * with the candidate's personal fields emptied as GET answers them after erasure.
 */
export function scrubStoredResponse(response: unknown, candidateId: string, erasedAt: string): unknown {
  const r = response as { body?: unknown } | undefined;
  if (!r || typeof r.body !== 'string') return response;
  let body: { data?: Record<string, unknown> };
  try {
    body = JSON.parse(r.body);
  } catch {
    return { ...r, body: '' };
  }
  const data = body?.data;
  if (data && data.candidate_id === candidateId && typeof data.compensation === 'object') {
    // One of its offers: answered as GET answers it after erasure.
    const offerScrubbed = {
      ...scrubbedCopy(offer, { ...data, erased_at: erasedAt }),
      compensation: { ...(data.compensation as object), amount: null },
    };
    return { ...r, body: JSON.stringify({ ...body, data: offerScrubbed }) };
  }
  if (!data || data.id !== candidateId) return { ...r, body: '' };
  const scrubbed: Record<string, unknown> = scrubbedCopy(candidate, { ...data, erased_at: erasedAt });
  // The rejection's note is answered inside `rejection` (lib/store/candidates.ts toCandidate).
  const rejection = scrubbed.rejection as Record<string, unknown> | null | undefined;
  if (rejection && typeof rejection === 'object') scrubbed.rejection = { ...rejection, note: null };
  return { ...r, body: JSON.stringify({ ...body, data: scrubbed }) };
}
