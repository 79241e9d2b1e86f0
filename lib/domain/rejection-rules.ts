/**
 * Rejection reasons on a stage move, as a pure rule: which reason (from the workspace's list as
 * read) a move carries, or why the request is refused.
 */
import { ValidationError } from '../errors';
import { DEFAULT_REJECTION_REASONS, type RejectionReason, type RejectionType, type Stage } from '../model';

/** What a move into `rejected` keeps: the reason as it read when chosen, and the note (personal). */
export interface Rejection {
  reason_id: string;
  label: string;
  type: RejectionType;
  note?: string;
}

export interface RejectionSettings {
  reasons: readonly RejectionReason[];
  required: boolean;
}

/** The workspace's settings as saved, or the defaults. */
export const rejectionSettingsOf = (stats: Record<string, unknown>): RejectionSettings => ({
  reasons: Array.isArray(stats.rejection_reasons) ? (stats.rejection_reasons as RejectionReason[]) : DEFAULT_REJECTION_REASONS,
  required: stats.require_rejection_reason === true,
});

export interface RejectionRequest {
  stage: Stage;
  rejection_reason_id?: string;
  rejection_note?: string;
}

/** Whether the move needs the settings read: only a move into `rejected` does. */
export const needsRejectionSettings = (req: RejectionRequest) => req.stage === 'rejected';

/**
 * The rejection a move carries: none for another stage (a reason or note given there is refused),
 * the chosen reason for a move into `rejected`; a reason that is not the workspace's, or none when
 * the workspace requires one, is refused.
 */
export function decideRejection(
  req: RejectionRequest,
  settings?: RejectionSettings,
): { rejection?: Rejection } | { refuse: ValidationError } {
  if (req.stage !== 'rejected') {
    for (const f of ['rejection_reason_id', 'rejection_note'] as const) {
      if (req[f] !== undefined) return { refuse: new ValidationError(`${f} is only accepted when stage is rejected`, { field: f }) };
    }
    return {};
  }
  const s = settings ?? { reasons: DEFAULT_REJECTION_REASONS, required: false };
  if (req.rejection_reason_id === undefined) {
    if (s.required)
      return { refuse: new ValidationError('rejection_reason_id is required when stage is rejected', { field: 'rejection_reason_id' }) };
    if (req.rejection_note !== undefined) {
      return { refuse: new ValidationError('rejection_note needs a rejection_reason_id', { field: 'rejection_reason_id' }) };
    }
    return {};
  }
  const reason = s.reasons.find((r) => r.id === req.rejection_reason_id);
  if (!reason)
    return {
      refuse: new ValidationError('rejection_reason_id is not one of the workspace rejection reasons', { field: 'rejection_reason_id' }),
    };
  return {
    rejection: {
      reason_id: reason.id,
      label: reason.label,
      type: reason.type,
      ...(req.rejection_note !== undefined && { note: req.rejection_note }),
    },
  };
}
