/** Audit records to activity feed items: pure, no table. */
import { describe, expect, it } from 'vitest';
import { activityOf, withRejection, type AuditRecordView } from '../../lib/domain/activity-rules';

const record = (over: Partial<AuditRecordView>): AuditRecordView => ({
  id: 'rec-1',
  at: '2026-11-01T09:30:00.000Z',
  action: 'candidate.updated',
  actor_type: 'user',
  actor_id: 'u1',
  actor_email: 'alice@acme.example',
  target_type: 'candidate',
  target_id: 'c1',
  changes: [],
  ...over,
});

describe('activityOf', () => {
  it('a move, with the rejection reason id, and its label read from the candidate', () => {
    const [plan] = activityOf(
      record({
        action: 'candidate.stage_changed',
        changes: [
          { field: 'stage', before: 'interviewed', after: 'rejected' },
          { field: 'rejection_reason_id', after: 'too_junior' },
        ],
      }),
    );
    expect(plan).toMatchObject({
      kind: 'candidate.stage_changed',
      candidateId: 'c1',
      actor: { type: 'user', id: 'u1', name: 'alice@acme.example' },
      payload: { from: 'interviewed', to: 'rejected', rejection_reason_id: 'too_junior' },
    });
    const withLabel = withRejection(plan!, { rejection: { reason_id: 'too_junior', label: 'Too junior', type: 'we_rejected' } });
    expect(withLabel.payload).toMatchObject({ rejection_reason_label: 'Too junior', rejection_type: 'we_rejected' });
  });

  it('an edit names the fields only, never a value, and a requisition change is its own item', () => {
    const plans = activityOf(
      record({
        changes: [{ field: 'email' }, { field: 'phone' }, { field: 'req_id', before: 'r1', after: 'r2' }],
      }),
    );
    expect(plans.map((p) => [p.kind, p.payload])).toEqual([
      ['candidate.requisition_changed', { from_req_id: 'r1', to_req_id: 'r2' }],
      ['candidate.edited', { fields: ['email', 'phone'] }],
    ]);
    expect(new Set(plans.map((p) => p.id)).size).toBe(2);
  });

  it('a created candidate, or an imported one naming its import', () => {
    expect(
      activityOf(record({ action: 'candidate.created', changes: [{ field: 'name' }, { field: 'stage', after: 'applied' }] }))[0]!.kind,
    ).toBe('candidate.created');
    const [imported] = activityOf(record({ action: 'candidate.created', changes: [{ field: 'import_id', after: 'imp-1' }] }));
    expect([imported!.kind, imported!.payload.import_id]).toEqual(['candidate.imported', 'imp-1']);
  });

  it("a note's item names its person, visibility and author, never its body", () => {
    const [plan] = activityOf(
      record({
        action: 'note.created',
        target_type: 'note',
        target_id: 'n1',
        changes: [
          { field: 'body' },
          { field: 'person_id', after: 'p1' },
          { field: 'visibility', after: 'private' },
          { field: 'author_id', after: 'u1' },
        ],
      }),
    );
    expect(plan).toMatchObject({ kind: 'note.created', personId: 'p1', payload: { note_id: 'n1', visibility: 'private' } });
    expect(plan!.sight).toEqual({ visibility: 'private', author_id: 'u1' });
    expect(JSON.stringify(plan)).not.toContain('body"');
  });

  it('an erasure leaves no item; an unknown candidate action passes through as its own kind', () => {
    expect(activityOf(record({ action: 'candidate.erased' }))).toEqual([]);
    const [later] = activityOf(record({ action: 'candidate.interview_scheduled', changes: [{ field: 'at', after: 'x' }] }));
    expect(later).toMatchObject({ kind: 'candidate.interview_scheduled', payload: { fields: ['at'], at: 'x' } });
    expect(activityOf(record({ target_type: 'webhook' }))).toEqual([]);
  });
});
