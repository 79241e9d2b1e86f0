/**
 * The lists other modules used to write out by hand now follow the candidate's declaration
 * (lib/entities/candidate.ts): each module that copies, scrubs, audits, imports or announces
 * candidate fields takes them from it. And a field added to a declaration reaches every derived
 * list and rule with no other edit (shown on a copy of the candidate's fields with one more).
 * test/integration/webhooks/erasure/reach.test.ts shows the same end to end on the stored items.
 */
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../../console/src/import-file';
import { auditChanges, defineEntity, erasure, field, fromItem, personalFieldsOf, redacted, scrubbed } from '../../lib/entity';
import { candidate } from '../../lib/entities/candidate';
import { deliveryAttempt } from '../../lib/entities/delivery-attempt';
import { placement } from '../../lib/entities/placement';
import { requisition } from '../../lib/entities/requisition';
import { EVENT_DATA } from '../../lib/webhooks/payloads';
import { CAND, candidateImage, eventsFromRecord, streamRecord, T0, T1, TENANT } from '../helpers/lambda-records';

// The store modules build the table client at import (no table is used here).
process.env.TABLE_NAME ??= 'unused';
const { IMPORT_COLUMNS } = await import('../../lib/imports/parse');
const { auditRecordItems, auditIntentItem, diffFields } = await import('../../lib/store/audit');
const { candidateItem } = await import('../../lib/store/candidates');
const { scrubStoredResponse } = await import('../../lib/store/scrub');
const { searchItems } = await import('../../lib/store/search');

/** A stored candidate with a value in every declared field but erased_at. */
const full = candidateImage({ phone: '+44 20 7946 0000', resume_url: 'https://cv.example.org/zoe.pdf' });

describe("the candidate's lists", () => {
  it('personal: name, email, phone, resume_url, the application, its screening and the rejection note; audited by name, erased, known to the audit log by target type', () => {
    expect(candidate.personal).toEqual(['name', 'email', 'phone', 'resume_url', 'application', 'screening', 'rejection_note']);
    expect(personalFieldsOf('candidate')).toBe(candidate.personal);
    expect(personalFieldsOf('requisition')).toEqual([]);
  });

  it('searchable: name and email, the fields the search index tokenizes (lib/store/search.ts candidateTokens)', () => {
    expect(candidate.searchable).toEqual(['name', 'email']);
    const entries = searchItems(TENANT, { ...full, phone: '+44 1', resume_url: 'https://x.example/y' });
    expect(entries.map((e) => e.token)).toEqual(searchItems(TENANT, full).map((e) => e.token));
  });

  it('the import columns, in the order the refusal of an unknown column lists them, the console the same', () => {
    expect(IMPORT_COLUMNS).toEqual(['name', 'email', 'phone', 'resume_url', 'req_id', 'stage']);
    expect(COLUMNS).toEqual([...candidate.importColumns]);
  });

  it('the item and its search entries copy the declared fields, and no other candidate data', () => {
    const item = candidateItem(TENANT, { ...full, note: 'not declared' } as never);
    for (const n of Object.keys(candidate.fields)) if (n in full) expect(item[n], n).toEqual(full[n]);
    const entries = searchItems(TENANT, { ...full, note: 'not declared' });
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      for (const n of candidate.copied) if (n in full) expect(e[n], n).toEqual(full[n]);
      expect(e.note).toBeUndefined();
    }
  });

  it('a kept answer is scrubbed of every personal field the answer holds, as GET answers an erased candidate', () => {
    const { rejection_note, ...answer } = fromItem(candidate, { ...full, rejection_note: 'kept note' });
    const rejection = { reason_id: 'ghosted', label: 'Stopped answering', type: 'candidate_withdrew', note: rejection_note };
    const body = JSON.stringify({ data: { ...answer, rejection } });
    const out = scrubStoredResponse({ statusCode: 201, body }, CAND, T1) as { body: string };
    const data = JSON.parse(out.body).data;
    // The application is never answered with the candidate, its screening only by GET of one
    // (never a kept answer); the note is answered inside `rejection`.
    for (const n of candidate.personal)
      if (n !== 'rejection_note' && n !== 'application' && n !== 'screening')
        expect(data[n], n).toBe(candidate.fields[n].optional ? null : '');
    // The note is answered inside `rejection`.
    expect(data.rejection).toEqual({ ...rejection, note: null });
    expect(out.body).not.toContain('kept note');
    expect(data).toMatchObject({ id: CAND, stage: 'applied', erased_at: T1 });
  });

  it('a change to each event field is a candidate.updated naming it, with the names the payload schema allows', () => {
    for (const [n, name] of candidate.eventFields) {
      const after = candidateImage({
        ...full,
        [n]: n === 'req_id' ? '0190a0a0-0000-7000-8000-00000000000f' : `${String(full[n] ?? 'x')}2`,
        updated_at: T1,
      });
      const [event] = eventsFromRecord(streamRecord('MODIFY', after, full));
      expect(event?.type, n).toBe('candidate.updated');
      expect(event?.data.changed).toEqual([name]);
      expect(z.safeParse(EVENT_DATA['candidate.updated'], event?.data).success).toBe(true);
    }
  });

  it('an audit record of a candidate keeps personal fields by name, the others with their values', () => {
    const changes = auditChanges(candidate, undefined, { ...full });
    expect(changes).toEqual([
      { field: 'name' },
      { field: 'email' },
      { field: 'phone' },
      { field: 'stage', after: 'applied' },
      { field: 'resume_url' },
      { field: 'req_id', after: full.req_id },
    ]);
    // The safety net under every writer: a candidate's personal value given by hand is dropped.
    const entry = { action: 'candidate.updated', actor: { type: 'system' as const, id: 'x' }, target: { type: 'candidate', id: CAND } };
    const [record] = auditRecordItems(
      auditIntentItem(TENANT, [{ ...entry, changes: [{ field: 'phone', after: '+44 1' }] }], Date.parse(T0))!,
    );
    expect(record!.changes).toEqual([{ field: 'phone' }]);
    expect(diffFields(['email'], undefined, { email: 'a@b.c' })).toEqual([{ field: 'email' }]);
  });
});

describe("the other declarations' lists", () => {
  it('a requisition: its audited fields and its event fields, as they were written by hand; nothing personal', () => {
    // The team (member ids, no personal data) is audited with its values and named in events.
    expect(requisition.audited).toEqual([
      'title',
      'department',
      'location',
      'job_type',
      'headcount',
      'recruiter_id',
      'hiring_manager_ids',
      'status',
    ]);
    expect(requisition.eventFields).toEqual([
      ['title', 'title'],
      ['department', 'department'],
      ['location', 'location'],
      ['job_type', 'jobType'],
      ['headcount', 'headcount'],
      ['recruiter_id', 'recruiterId'],
      ['hiring_manager_ids', 'hiringManagerIds'],
      // A posting write (its content is read with GET .../posting, not carried in the event).
      ['posting_at', 'posting'],
    ]);
    expect(requisition.personal).toEqual([]);
  });

  it("a placement: the candidate's name it copies and the offer's amount are what erasure empties", () => {
    expect(placement.personal).toEqual(['candidate_name', 'amount']);
    expect(erasure(placement, () => 'REMOVE')).toEqual({ candidate_name: '', amount: 'REMOVE' });
  });

  it("a delivery attempt: the receiver's answer is what erasure removes", () => {
    expect(deliveryAttempt.personal).toEqual(['response_body']);
    expect(erasure(deliveryAttempt, () => 'REMOVE')).toEqual({ response_body: 'REMOVE' });
  });
});

describe('a field added to a declaration reaches every list and rule', () => {
  const fields = {
    ...candidate.fields,
    nickname: field.text(50, { personal: true, optional: true, importable: true, shapes: ['create', 'update', 'response'], event: true }),
  };
  const wider = defineEntity('candidate_with_nickname', fields);
  const item = { ...full, nickname: 'Zo' };

  it('is personal: erased, scrubbed from copies, audited by name, redacted, and known to the audit log', () => {
    expect(wider.personal).toContain('nickname');
    expect(erasure(wider, () => 'REMOVE')).toMatchObject({ name: '', nickname: 'REMOVE' });
    expect(scrubbed(wider, item).nickname).toBeNull();
    expect(auditChanges(wider, undefined, item)).toContainEqual({ field: 'nickname' });
    expect(redacted(wider, item).nickname).toBe('[redacted]');
    expect(personalFieldsOf('candidate_with_nickname')).toContain('nickname');
  });

  it('is read by the codec, imported, copied into search entries and announced', () => {
    expect(fromItem(wider, item).nickname).toBe('Zo');
    expect(fromItem(wider, full).nickname).toBeNull();
    expect(wider.importColumns).toContain('nickname');
    expect(wider.copied).toContain('nickname');
    expect(wider.eventFields).toContainEqual(['nickname', 'nickname']);
    expect(wider.updateFields).toContain('nickname');
  });
});
