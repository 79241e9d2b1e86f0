/**
 * The activity feed's rules: which audit records become feed items of a person, and as what. The
 * audit intent of a change already names its actor, action, target and changed fields (personal
 * ones by name only), so the feed is derived from it after the change (lib/domain/activity.ts),
 * and a change stays one transaction. A kind is a string and its payload a map: a new kind needs
 * no migration, and the API passes kinds it does not know through.
 */
import type { NoteSight } from './note-rules';

/** An audit record as its item holds it (lib/store/audit.ts auditRecordItem). */
export interface AuditRecordView {
  id: string;
  at: string;
  action: string;
  actor_type: string;
  actor_id: string;
  actor_email?: string;
  actor_name?: string;
  target_type: string;
  target_id: string;
  changes?: { field: string; before?: unknown; after?: unknown }[];
}

export interface ActivityActor {
  type: string;
  id: string;
  name?: string;
}

/** A feed item before its person is known: a candidate's change names the candidate, whose item names the person. */
export interface ActivityPlan {
  /** Unique per item, stable across expansions of the same record. */
  id: string;
  kind: string;
  at: string;
  actor: ActivityActor;
  personId?: string;
  candidateId?: string;
  payload: Record<string, unknown>;
  /** On a note's items: who may see them (lib/domain/note-rules.ts maySeeNote). */
  sight?: Omit<NoteSight, 'person_id'>;
}

/** Audit actions that leave no feed item: an erasure deletes the person's partition, feed included. */
const NO_FEED = new Set(['candidate.erased', 'candidate.erasure_swept', 'person.erased']);

const changeOf = (r: AuditRecordView, field: string) => r.changes?.find((c) => c.field === field);
const after = (r: AuditRecordView, field: string) => changeOf(r, field)?.after;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The changes' non-personal values by field (personal ones were stored by name alone), and every field's name. */
function passThrough(r: AuditRecordView): Record<string, unknown> {
  const changes = r.changes ?? [];
  return {
    fields: changes.map((c) => c.field),
    ...Object.fromEntries(changes.filter((c) => 'after' in c).map((c) => [c.field, c.after])),
  };
}

export const actorOfRecord = (r: AuditRecordView): ActivityActor => ({
  type: r.actor_type,
  id: r.actor_id,
  ...((r.actor_name ?? r.actor_email) && { name: r.actor_name ?? r.actor_email }),
});

/**
 * The feed items an audit record stands for: none for records about anything but a person, a
 * candidate, a note or a scorecard, and none for an erasure.
 */
export function activityOf(r: AuditRecordView): ActivityPlan[] {
  if (NO_FEED.has(r.action)) return [];
  const base = { at: r.at, actor: actorOfRecord(r) };
  if (r.target_type === 'note') {
    const personId = str(after(r, 'person_id'));
    const visibility = str(after(r, 'visibility'));
    const authorId = str(after(r, 'author_id'));
    if (!personId || !visibility || !authorId) return [];
    const via = str(after(r, 'via_token_id'));
    const candidateId = str(after(r, 'candidate_id'));
    return [
      {
        ...base,
        id: r.id,
        kind: r.action,
        personId,
        ...(candidateId && { candidateId }),
        payload: { note_id: r.target_id, visibility },
        sight: { visibility: visibility as NoteSight['visibility'], author_id: authorId, ...(via && { via_token_id: via }) },
      },
    ];
  }
  if (r.target_type === 'scorecard') {
    // Ids and the recommendation, never the text; who reads it is the blind rule (lib/domain/activity-blind.ts).
    const candidateId = str(after(r, 'candidate_id'));
    if (!candidateId) return [];
    const version = after(r, 'version');
    return [
      {
        ...base,
        id: r.id,
        kind: version === 1 ? 'scorecard.submitted' : 'scorecard.updated',
        candidateId,
        payload: {
          scorecard_id: r.target_id,
          interview_id: after(r, 'interview_id') ?? null,
          interviewer_id: after(r, 'interviewer_id') ?? null,
          req_id: after(r, 'req_id') ?? null,
          overall: after(r, 'overall') ?? null,
          version: version ?? null,
        },
      },
    ];
  }
  if (r.target_type === 'person') return [{ ...base, id: r.id, kind: r.action, personId: r.target_id, payload: passThrough(r) }];
  if (r.target_type !== 'candidate') return [];
  const candidateId = r.target_id;
  const one = (kind: string, payload: Record<string, unknown>, id = r.id): ActivityPlan => ({ ...base, id, kind, candidateId, payload });
  switch (r.action) {
    case 'candidate.created': {
      const importId = str(after(r, 'import_id'));
      const payload = { stage: after(r, 'stage') ?? null, req_id: after(r, 'req_id') ?? null };
      return [importId ? one('candidate.imported', { ...payload, import_id: importId }) : one('candidate.created', payload)];
    }
    case 'candidate.stage_changed': {
      const stage = changeOf(r, 'stage');
      const reason = str(after(r, 'rejection_reason_id'));
      // A screening's move names the rules that decided, in the posting's words.
      const rules = after(r, 'screening_rules');
      return [
        one('candidate.stage_changed', {
          from: stage?.before ?? null,
          to: stage?.after ?? null,
          ...(reason && { rejection_reason_id: reason }),
          ...(Array.isArray(rules) && { screening_rules: rules }),
        }),
      ];
    }
    case 'candidate.updated': {
      // Field names only: the personal ones were stored by name, and the feed says no more of the others.
      const fields = (r.changes ?? []).map((c) => c.field).filter((f) => f !== 'req_id' && f !== 'req_title');
      const req = changeOf(r, 'req_id');
      return [
        ...(req
          ? [one('candidate.requisition_changed', { from_req_id: req.before ?? null, to_req_id: req.after ?? null }, `${r.id}-req`)]
          : []),
        ...(fields.length ? [one('candidate.edited', { fields })] : []),
      ];
    }
    default:
      return [one(r.action, passThrough(r))];
  }
}

/** The rejection a stage move's item names: its label and type, read from the candidate as it stands. */
export function withRejection(plan: ActivityPlan, candidate: Record<string, unknown> | undefined): ActivityPlan {
  const id = plan.payload.rejection_reason_id;
  const r = candidate?.rejection as Record<string, unknown> | undefined;
  if (id === undefined || !r || r.reason_id !== id) return plan;
  return { ...plan, payload: { ...plan.payload, rejection_reason_label: r.label, rejection_type: r.type } };
}
