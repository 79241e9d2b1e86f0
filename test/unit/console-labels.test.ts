import { describe, expect, it } from 'vitest';
import { JOB_TYPE_LABELS, REQ_STATUS_LABELS, STAGE_LABELS, STAGE_ORDER } from '../../console/src/labels';
import { JOB_TYPES, REQ_STATUSES, STAGES } from '../../lib/model';

// The console names the API's codes; a code added on the server without a name would show raw.
describe('console labels', () => {
  it('name every stage, in pipeline order, every requisition status and every job type', () => {
    expect(STAGE_ORDER).toEqual([...STAGES]);
    expect(Object.keys(REQ_STATUS_LABELS).sort()).toEqual([...REQ_STATUSES].sort());
    expect(Object.keys(JOB_TYPE_LABELS).sort()).toEqual([...JOB_TYPES].sort());
    expect(Object.keys(STAGE_LABELS)).toHaveLength(STAGES.length);
  });
});
