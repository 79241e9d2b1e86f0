/**
 * The blind rule on the activity feed: a scorecard's item (kind `scorecard.*`) is shown only to a
 * reader who may read that candidate's scorecards (lib/domain/scorecard-rules.ts): the team that
 * sees them all, or an interviewer once they submitted their own for the candidate. A page without
 * scorecard items, or a reader who sees every scorecard of the workspace, costs no read; otherwise
 * one Query per candidate and one GetItem per requisition of the page's scorecard items.
 */
import { getRequisition } from '../store/requisitions';
import { queryCandidateScorecards } from '../store/scorecards';
import type { Principal } from './principal';
import { seesAllScorecards } from './scorecard-rules';
import { viewerOf } from './visibility';

export const isScorecardItem = (i: { kind?: unknown }) => typeof i.kind === 'string' && i.kind.startsWith('scorecard.');

/** The items the reader may see under the blind rule, in order. */
export async function blindFiltered<I extends { kind?: unknown; candidate_id?: unknown; payload?: unknown }>(
  p: Principal,
  items: readonly I[],
): Promise<I[]> {
  const cards = items.filter(isScorecardItem);
  const v = viewerOf(p);
  if (!cards.length || v.role === 'admin') return [...items];
  const reqOf = (i: I) => (i.payload as { req_id?: unknown } | undefined)?.req_id;
  const candidateIds = [...new Set(cards.map((i) => i.candidate_id).filter((c): c is string => typeof c === 'string'))];
  const reqIds = [...new Set(cards.map(reqOf).filter((r): r is string => typeof r === 'string'))];
  const [teams, wrote] = await Promise.all([
    Promise.all(reqIds.map(async (id) => [id, await getRequisition(p.tenantId, id)] as const)).then((e) => new Map(e)),
    Promise.all(
      candidateIds.map(async (c) => {
        const all = await queryCandidateScorecards(p.tenantId, c);
        return [c, v.userId !== undefined && all.some((s) => s.interviewer_id === v.userId)] as const;
      }),
    ).then((e) => new Map(e)),
  ]);
  return items.filter((i) => {
    if (!isScorecardItem(i)) return true;
    const req = reqOf(i);
    const team = typeof req === 'string' ? teams.get(req) : undefined;
    return seesAllScorecards(v, team) || wrote.get(String(i.candidate_id)) === true;
  });
}
