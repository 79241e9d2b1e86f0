/**
 * Stream records for the webhook unit files (webhook-events, webhook-signatures,
 * webhook-stream-filter): a candidate's stage move and a placement item, on top of
 * test/helpers/lambda-records.ts. Pure builders: nothing here outlives a call.
 */
import { CAND, candidateImage, type Img, REQ, streamRecord, T1, TENANT } from '../helpers/lambda-records';

export const candidate = candidateImage;
export const record = streamRecord;

export const move = (from: string, to: string, extra: Img = {}) =>
  record('MODIFY', candidate({ stage: to, updated_at: T1, stage_entered_at: T1, ...extra }), candidate({ stage: from, ...extra }));

export const placement = (over: Img = {}): Img => ({
  PK: `T#${TENANT}`,
  SK: 'PLACEMENT#p1',
  type: 'placement',
  id: '01900000-0000-7000-8000-0000000000f1',
  tenant_id: TENANT,
  candidate_id: CAND,
  candidate_name: 'Zoë Ådahl',
  req_id: REQ,
  req_title: 'Backend Engineer',
  placed_at: T1,
  created_at: T1,
  ...over,
});
