/**
 * What a move into `placed` reads besides the candidate: the requisition (its team goes on the
 * placement, and its headcount decides the hire up front, so a hire that fills it needs no
 * refused transaction) and the accepted offer the candidate followed (its terms go on the
 * placement). Both at once, one GetItem each; none for a candidate on no requisition and
 * without an offer.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import type { PlacementTerms } from './candidates';
import { keys } from './table';

type Item = Record<string, unknown>;

const get = async (key: { PK: string; SK: string }): Promise<Item | undefined> =>
  (await ddb.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** The offer's terms a placement keeps (the amount is personal: the placement's erasure removes it). */
const OFFER_TERMS = ['start_date', 'amount', 'currency', 'period', 'employment_type', 'location'] as const;

/**
 * The requisition as read (undefined when there is none) and the placement's terms: the
 * requisition's recruiter and hiring managers, and the accepted offer's id, version and terms.
 */
export async function readPlacementContext(tenantId: string, candidate: Item): Promise<{ requisition?: Item; terms: PlacementTerms }> {
  const reqId = typeof candidate.req_id === 'string' ? candidate.req_id : undefined;
  const ref = candidate.offer_ref as { offer_id?: unknown } | undefined;
  const offerId = typeof ref?.offer_id === 'string' ? ref.offer_id : undefined;
  const [requisition, offer] = await Promise.all([
    reqId ? get(keys.requisition(tenantId, reqId)) : undefined,
    offerId ? get(keys.offer(tenantId, offerId)) : undefined,
  ]);
  const terms: PlacementTerms = {};
  if (requisition) {
    if (typeof requisition.recruiter_id === 'string') terms.recruiter_id = requisition.recruiter_id;
    if (Array.isArray(requisition.hiring_manager_ids)) terms.hiring_manager_ids = requisition.hiring_manager_ids;
  }
  // Only the candidate's own accepted offer makes the hire.
  if (offer && offer.status === 'accepted' && offer.candidate_id === candidate.id) {
    terms.offer_id = offer.id;
    terms.offer_version = offer.version;
    for (const f of OFFER_TERMS) if (offer[f] !== undefined && offer[f] !== null) terms[f] = offer[f];
  }
  return { requisition, terms };
}
