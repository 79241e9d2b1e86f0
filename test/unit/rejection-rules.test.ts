/**
 * Rejection reasons on a stage move as pure rules (lib/domain/rejection-rules.ts and decideMove),
 * no DynamoDB: which reason a move carries, or the field a refusal names.
 */
import { describe, expect, it } from 'vitest';

process.env.TABLE_NAME ??= 'unused';
const { ValidationError } = await import('../../lib/errors');
const { decideRejection, needsRejectionSettings, rejectionSettingsOf } = await import('../../lib/domain/rejection-rules');
const { decideMove } = await import('../../lib/domain/candidate-rules');
const { DEFAULT_REJECTION_REASONS } = await import('../../lib/model');
type Stage = import('../../lib/model').Stage;

const own = { reasons: [{ id: 'ghosted', label: 'Stopped answering', type: 'candidate_withdrew' as const }], required: false };
const refusedField = (d: ReturnType<typeof decideRejection>) => {
  if (!('refuse' in d)) return undefined;
  expect(d.refuse).toBeInstanceOf(ValidationError);
  expect(d.refuse.status).toBe(400);
  return d.refuse.field;
};

describe('decideRejection', () => {
  it('reads the settings only for a move into rejected', () => {
    expect(needsRejectionSettings({ stage: 'rejected' })).toBe(true);
    expect(needsRejectionSettings({ stage: 'interviewed' })).toBe(false);
  });

  it('a move to another stage carries no reason, and refuses a reason or note by field', () => {
    expect(decideRejection({ stage: 'interviewed' })).toEqual({});
    expect(refusedField(decideRejection({ stage: 'interviewed', rejection_reason_id: 'ghosted' }))).toBe('rejection_reason_id');
    expect(refusedField(decideRejection({ stage: 'placed', rejection_note: 'n' }))).toBe('rejection_note');
  });

  it("takes the reason from the workspace's list, as it reads now, with the note", () => {
    expect(decideRejection({ stage: 'rejected', rejection_reason_id: 'ghosted', rejection_note: 'two weeks' }, own)).toEqual({
      rejection: { reason_id: 'ghosted', label: 'Stopped answering', type: 'candidate_withdrew', note: 'two weeks' },
    });
    expect(decideRejection({ stage: 'rejected', rejection_reason_id: 'ghosted' }, own)).toEqual({
      rejection: { reason_id: 'ghosted', label: 'Stopped answering', type: 'candidate_withdrew' },
    });
  });

  it("refuses an id not in the workspace's list (a default one once the workspace saved its own)", () => {
    expect(refusedField(decideRejection({ stage: 'rejected', rejection_reason_id: 'culture_fit' }, own))).toBe('rejection_reason_id');
    expect('rejection' in decideRejection({ stage: 'rejected', rejection_reason_id: 'culture_fit' })).toBe(true);
  });

  it('without a reason: allowed unless required; a note alone is refused', () => {
    expect(decideRejection({ stage: 'rejected' }, own)).toEqual({});
    expect(refusedField(decideRejection({ stage: 'rejected' }, { ...own, required: true }))).toBe('rejection_reason_id');
    expect(refusedField(decideRejection({ stage: 'rejected', rejection_note: 'n' }, own))).toBe('rejection_reason_id');
  });

  it('settings: the saved list and flag, or the defaults', () => {
    expect(rejectionSettingsOf({})).toEqual({ reasons: DEFAULT_REJECTION_REASONS, required: false });
    expect(rejectionSettingsOf({ rejection_reasons: own.reasons, require_rejection_reason: true })).toEqual({ ...own, required: true });
    const ids = DEFAULT_REJECTION_REASONS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(DEFAULT_REJECTION_REASONS.map((r) => r.type))).toEqual(new Set(['we_rejected', 'candidate_withdrew']));
  });
});

describe('decideMove with a rejection', () => {
  const cand = (stage: Stage) => ({ item: { id: 'c1', stage }, id: 'c1', stage, reqId: undefined, erased: false });
  const rejection = { reason_id: 'ghosted', label: 'Stopped answering', type: 'candidate_withdrew' as const, note: 'private' };
  const audit = { actor: { type: 'user' as const, id: 'u1' }, action: 'candidate.stage_changed', target: { type: 'candidate', id: 'c1' } };

  it('keeps the reason on the plan and audits its id, never the note', () => {
    const d = decideMove({ candidate: cand('interviewed') }, { stage: 'rejected', at: 'now', rejection, audit } as never);
    if (!('write' in d)) throw new Error('expected a write');
    expect(d.write.rejection).toEqual(rejection);
    expect(d.write.audit?.changes).toEqual([
      { field: 'stage', before: 'interviewed', after: 'rejected' },
      { field: 'rejection_reason_id', after: 'ghosted' },
    ]);
    expect(JSON.stringify(d.write.audit)).not.toContain('private');
  });

  it('an erased candidate keeps no note (409 candidate_erased), a reason alone is kept', () => {
    const erased = { ...cand('interviewed'), erased: true };
    const d = decideMove({ candidate: erased }, { stage: 'rejected', at: 'now', rejection });
    if (!('refuse' in d)) throw new Error('expected a refusal');
    expect(d.refuse).toMatchObject({ status: 409, code: 'candidate_erased', field: 'rejection_note' });
    const { note: _n, ...reasonOnly } = rejection;
    expect('write' in decideMove({ candidate: erased }, { stage: 'rejected', at: 'now', rejection: reasonOnly })).toBe(true);
  });

  it('a move out of rejected carries none', () => {
    const d = decideMove({ candidate: cand('rejected') }, { stage: 'applied', at: 'now', rejection });
    if (!('write' in d)) throw new Error('expected a write');
    expect(d.write.rejection).toBeUndefined();
  });
});
