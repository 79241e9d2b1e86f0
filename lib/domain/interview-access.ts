/**
 * Who reads an interview: admins and recruiters every one; an interviewer those they are on; a
 * hiring manager those of the requisitions whose team names them. An interview the caller may
 * not read is absent from lists and a 404 when read.
 */
import type { Interview } from '../api/interviews';
import { getRequisition } from '../store/requisitions';
import type { Principal } from './principal';
import { maySee, seesAll, viewerOf, type Viewer } from './visibility';

export interface InterviewReader extends Viewer {
  seesAll: boolean;
  /** The interviews of a page this reader may see, in order. */
  filter(items: readonly Interview[]): Promise<Interview[]>;
}

/** Whether the viewer may read the interview, given its requisition's team (read only for a hiring manager). */
export const mayReadWith = (v: Viewer, iv: Interview, requisition: Record<string, unknown> | undefined): boolean =>
  seesAll(v) ||
  (v.userId !== undefined && iv.interviewers.includes(v.userId)) ||
  (v.role === 'hiring_manager' && requisition !== undefined && maySee(v, { kind: 'requisition', requisition }));

export function interviewReader(p: Principal): InterviewReader {
  const v = viewerOf(p);
  return {
    ...v,
    seesAll: seesAll(v),
    async filter(items) {
      if (seesAll(v)) return [...items];
      const reqIds = v.role === 'hiring_manager' ? [...new Set(items.map((i) => i.req_id).filter((r): r is string => r !== null))] : [];
      const reqs = new Map(await Promise.all(reqIds.map(async (id) => [id, await getRequisition(p.tenantId, id)] as const)));
      return items.filter((iv) => mayReadWith(v, iv, iv.req_id ? reqs.get(iv.req_id) : undefined));
    },
  };
}

export async function mayReadInterview(p: Principal, iv: Interview): Promise<boolean> {
  return (await interviewReader(p).filter([iv])).length === 1;
}
