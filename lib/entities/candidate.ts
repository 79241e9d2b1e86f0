/**
 * The candidate, declared once (lib/entity.ts says what a declaration holds). Its fields are
 * listed in the order answers give them. A new personal field is added here, and erasure,
 * retention, the audit log, search, the import and the events follow; an item builder that copies
 * candidate fields takes them from these lists (test/unit/entity-lists.test.ts), and
 * test/integration/erasure-reach.test.ts fails when a personal field is stored where erasure does
 * not reach.
 */
import { DOCS } from '../docs';
import { defineEntity, field, fromItem, type RecordOf } from '../entity';
import { type RejectionType, STAGES } from '../model';
import type { Item } from '../item';

/** The profile: set on create, changed by PATCH, answered. */
const profile = ['create', 'update', 'response'] as const;
const erasedName = DOCS && 'Empty once erased (erased_at).';
const erasedOptional = DOCS && 'Null once erased (erased_at).';

export const candidate = defineEntity('candidate', {
  id: field.uuid({ audit: 'none' }),
  name: field.text(200, {
    personal: true,
    searchable: true,
    importable: true,
    shapes: profile,
    event: true,
    description: erasedName,
  }),
  email: field.email({
    personal: true,
    searchable: true,
    importable: true,
    optional: true,
    shapes: profile,
    event: true,
    description: erasedOptional,
  }),
  phone: field.phone({ personal: true, importable: true, optional: true, shapes: profile, event: true, description: erasedOptional }),
  // Stage moves go through POST /pipeline, not PATCH.
  stage: field.oneOf(STAGES, { importable: true, shapes: ['create', 'response'], default: 'applied' }),
  resume_url: field.url({
    personal: true,
    importable: true,
    optional: true,
    shapes: profile,
    event: 'resumeUrl',
    description: erasedOptional,
  }),
  // Denormalized from the requisition, so lists and stuck alerts need no second read.
  req_title: field.string({ optional: true, audit: 'none' }),
  req_id: field.uuid({ importable: true, optional: true, shapes: profile, event: 'reqId' }),
  created_at: field.time({ audit: 'none' }),
  updated_at: field.time({ audit: 'none' }),
  // Items from before the field was kept entered their stage when they were created.
  stage_entered_at: field.time({ audit: 'none', fallback: 'created_at' }),
  // The person the candidate belongs to (lib/entities/person.ts); null on candidates written before people existed, until the backfill.
  person_id: field.uuid({
    optional: true,
    audit: 'none',
    description: DOCS && 'The person this candidate is (GET /people/{id}); one person has a candidate per requisition.',
  }),
  // Where the candidate came from: `careers` (the public application form), the `src` its link
  // gave, or `api`, `console` and `import`; null on candidates written before it was kept.
  source: field.string({
    optional: true,
    audit: 'none',
    description: DOCS && 'Where the candidate came from: careers (an application), the src of the careers link, api, console or import.',
  }),
  // An application's answers to the posting's questions and the consent it gave, as JSON:
  // personal, on the candidate alone (lib/domain/application-run.ts).
  application: field.string({ personal: true, optional: true, absent: 'omitted', shapes: [], audit: 'none', copied: false }),
  // The screening of an application (lib/domain/screening-rules.ts ScreeningState), as JSON: its
  // reasons quote the answers, so it is personal; answered on the candidate's own read only.
  screening: field.string({ personal: true, optional: true, absent: 'omitted', shapes: [], audit: 'none', copied: false }),
  // Search entries are deleted by the erasure itself, so they never carry it.
  erased_at: field.time({ optional: true, absent: 'omitted', audit: 'none', copied: false }),
  // The note a rejection gave (POST /pipeline): on the candidate and its search entries (never its stage
  // history, events or audit values), answered inside `rejection` (lib/store/candidates.ts).
  rejection_note: field.string({ personal: true, optional: true, absent: 'omitted', shapes: [], audit: 'none' }),
});

export type CandidateFields = typeof candidate.fields;
/** The candidate as its item holds it (the codec's object). */
export type CandidateRecordOf = RecordOf<CandidateFields>;

/** The rejection a candidate in `rejected` was given, as answered (lib/store/candidates.ts toCandidate). */
export interface RejectionAnswer {
  reason_id: string;
  label: string;
  type: RejectionType;
  /** Personal data: null once erased, or when none was given. */
  note: string | null;
}
/** The candidate as answered: the note inside `rejection`. */
export type Candidate = Omit<CandidateRecordOf, 'rejection_note' | 'application' | 'screening'> & { rejection: RejectionAnswer | null };

/** The candidate item's codec. */
export const candidateFromItem = (item: Item): CandidateRecordOf => fromItem(candidate, item);
