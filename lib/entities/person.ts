/**
 * The person: one human, with their personal fields, above the candidates (one per pursuit: a
 * requisition, a stage). Declared once; erasure, the audit log and redaction take its personal
 * fields from here as they take the candidate's. Each candidate keeps a copy of these fields
 * (lib/entities/candidate.ts), so the contract's candidate shapes read one item; a write that
 * changes the person rewrites every copy in the same transaction (lib/store/people.ts).
 *
 * Two attributes of the person item are the store's own and no field here: `claims` (the digests
 * of their emails' claims) and `guards` (requisition id -> candidate id, the duplicate guards).
 * They hold digests and ids, no personal data, in no API shape and no audit record; erasing the
 * person deletes the item with them.
 */
import { defineEntity, field, fromItem, type RecordOf } from '../entity';
import type { Item } from '../item';

export const person = defineEntity('person', {
  id: field.uuid({ audit: 'none' }),
  name: field.text(200, { personal: true, searchable: true }),
  email: field.email({ personal: true, searchable: true, optional: true }),
  phone: field.phone({ personal: true, optional: true }),
  resume_url: field.url({ personal: true, optional: true }),
  /** Candidates of the person, kept by each create and merge in the same transaction. */
  candidate_count: field.int({ audit: 'none', ifAbsent: 0 }),
  created_at: field.time({ audit: 'none' }),
  updated_at: field.time({ audit: 'none' }),
});

export type PersonRecord = RecordOf<typeof person.fields>;

/** The fields a person shares with each of their candidates' copies: the personal ones. */
export const PERSON_FIELDS = person.personal;

export const personFromItem = (item: Item): PersonRecord => fromItem(person, item);
