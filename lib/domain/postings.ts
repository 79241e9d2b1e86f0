/**
 * A requisition's posting: reading it and writing the whole of it (the routes), and the public
 * read of one posting by careers slug that the board and the application path share. The checks
 * and the write's plan are pure (posting-rules.ts); the store keeps the board index with it.
 */
import type { PostingAnswer, PutPostingBody } from '../api/postings';
import type { Posting } from '../entities/posting';
import { NotFoundError } from '../errors';
import { nowIso } from '../ids';
import { getPublicPosting, getRequisitionAndPosting, tenantIdOfSlug, writePosting, type PublicPosting } from '../store/postings';
import type { Item } from '../store/codec';
import { actorOf, auditBy, type Principal } from './principal';
import { checkPosting, decidePosting, isListed, type PostingReqRead } from './posting-rules';
import { decideAndWrite } from './retry';
import { maySee, viewerOf } from './visibility';

const BUSY = 'requisition is being changed concurrently; try again';

/** The posting's answer: the posting and whether the public sees it now. */
export const toPostingAnswer = (posting: Posting, req: PostingReqRead): PostingAnswer => ({
  ...posting,
  listed: isListed(posting.published, req.status),
});

/** The ETag of a posting's version. */
export const postingEtag = (p: Posting) => `"${p.version}"`;

/** The requisition and its posting as the caller may see them: a requisition they do not see reads as none. */
async function readSeen(principal: Principal, id: string) {
  const { req, reqItem, posting } = await getRequisitionAndPosting(principal.tenantId, id);
  const seen = reqItem !== undefined && maySee(viewerOf(principal), { kind: 'requisition', requisition: reqItem as Item });
  return seen ? { req, posting } : { req: undefined, posting: undefined };
}

export async function getPosting(principal: Principal, id: string): Promise<{ posting: PostingAnswer; etag: string }> {
  const { req, posting } = await readSeen(principal, id);
  if (!req) throw new NotFoundError('requisition');
  if (!posting) throw new NotFoundError('posting');
  return { posting: toPostingAnswer(posting, req), etag: postingEtag(posting) };
}

/**
 * Write the whole posting: the checks across fields first (nothing read), then one read of the
 * requisition and the posting and one transaction, again on a lost race (a status change or
 * another write in between). The same posting again writes nothing.
 */
export async function putPosting(
  principal: Principal,
  id: string,
  body: PutPostingBody,
): Promise<{ posting: PostingAnswer; etag: string }> {
  checkPosting(body);
  const audit = auditBy(principal, 'requisition.posting_updated', { type: 'requisition', id });
  const { posting, req } = await decideAndWrite({
    state: readSeen(principal, id),
    decide: (state) => decidePosting(state, body, { actor: actorOf(principal), at: nowIso(), audit }),
    write: async (plan) => ({ outcome: await writePosting(principal.tenantId, plan), result: { posting: plan.posting, req: plan.req } }),
    again: () => readSeen(principal, id),
    busy: BUSY,
  });
  return { posting: toPostingAnswer(posting, req), etag: postingEtag(posting) };
}

/**
 * The public posting of a careers slug and a requisition id: undefined for an unknown slug, a
 * requisition of another workspace, an unpublished posting or a requisition that is not open,
 * all alike (the public routes answer each with the same 404).
 */
export async function publicPosting(slug: string, reqId: string): Promise<(PublicPosting & { tenantId: string }) | undefined> {
  const tenantId = await tenantIdOfSlug(slug);
  if (!tenantId) return undefined;
  const found = await getPublicPosting(tenantId, reqId);
  return found && { ...found, tenantId };
}
