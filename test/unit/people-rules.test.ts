/** The people rules without DynamoDB: match or create, the duplicate rule, the cap, retention's judgement of a person. */
import { describe, expect, it } from 'vitest';
import { decidePerson, decidePersonEdit, personExpired } from '../../lib/domain/people-rules';
import { MAX_CANDIDATES_PER_PERSON } from '../../lib/model';
import { emailDigest, matchForm } from '../../lib/store/people';
import type { CandidateRecord } from '../../lib/store/candidates';

const at = '2026-01-01T00:00:00.000Z';
const record: CandidateRecord = {
  id: 'c1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+44 1',
  stage: 'applied',
  req_id: 'r1',
  created_at: at,
  updated_at: at,
  stage_entered_at: at,
};

describe('decidePerson', () => {
  it('an email no one claims (or none) makes a new person, claiming the email when there is one', () => {
    expect(decidePerson(record, { owner: null }, 'p-new')).toEqual({
      record: { ...record, person_id: 'p-new' },
      person: { kind: 'new', personId: 'p-new', claim: true },
    });
    const { email: _e, ...noEmail } = record;
    expect(decidePerson(noEmail, {}, 'p-new')).toMatchObject({ person: { kind: 'new', claim: false } });
  });

  it("a claimed email joins its person, first expecting the request's fields, then copying the person's as seen", () => {
    expect(decidePerson(record, { owner: 'p1' }, 'p-new')).toEqual({
      record: { ...record, person_id: 'p1' },
      person: {
        kind: 'join',
        personId: 'p1',
        expect: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 1', resume_url: undefined },
        guardItems: false,
      },
    });
    const seen = { id: 'p1', name: 'Ada King', email: 'Ada@Example.com', resume_url: 'https://cv.example/ada', candidate_count: 2 };
    const decided = decidePerson(record, { owner: 'p1', personSeen: seen }, 'p-new');
    if (!('record' in decided)) throw new Error('refused');
    expect(decided.record).toMatchObject({
      name: 'Ada King',
      email: 'Ada@Example.com',
      resume_url: 'https://cv.example/ada',
      person_id: 'p1',
    });
    // The person has no phone: the candidate copies none.
    expect('phone' in decided.record).toBe(false);
  });

  it('a join sets the guard on the person item unless the person was last seen as older data, whose guards are items', () => {
    const join = (personSeen?: Record<string, unknown>) => {
      const d = decidePerson(record, { owner: 'p1', personSeen }, 'p-new');
      return 'person' in d && d.person.kind === 'join' && d.person.guardItems;
    };
    expect(join()).toBe(false);
    expect(join({ name: 'Ada', guards: { none: 'c0' } })).toBe(false);
    expect(join({ name: 'Ada' })).toBe(true);
  });

  it('a guard refusal is a duplicate_candidate naming the candidate, on a requisition or without one', () => {
    const onReq = decidePerson(record, { owner: 'p1', duplicateOf: 'c0' }, 'p-new');
    expect('refuse' in onReq && onReq.refuse).toMatchObject({
      status: 409,
      code: 'duplicate_candidate',
      field: 'req_id',
      existingId: 'c0',
    });
    const { req_id: _r, ...noReq } = record;
    const without = decidePerson(noReq, { owner: 'p1', duplicateOf: 'c0' }, 'p-new');
    expect('refuse' in without && without.refuse).toMatchObject({ code: 'duplicate_candidate', field: 'email', existingId: 'c0' });
  });

  it('a person with the most candidates one may have takes no more', () => {
    const full = decidePerson(record, { owner: 'p1', personSeen: { name: 'A', candidate_count: MAX_CANDIDATES_PER_PERSON } }, 'x');
    expect('refuse' in full && full.refuse).toMatchObject({ status: 409, code: 'person_limit' });
  });
});

describe('matching emails', () => {
  it('is case, accent and surrounding-space blind, and keys claims by a digest', () => {
    expect(matchForm(' José@Example.COM ')).toBe('jose@example.com');
    expect(emailDigest('JOSÉ@example.com')).toBe(emailDigest('jose@example.com'));
    expect(emailDigest('jose@example.com')).toMatch(/^[0-9a-f]{64}$/);
    expect(emailDigest('jose@example.com')).not.toBe(emailDigest('josef@example.com'));
  });
});

describe('personExpired', () => {
  const c = (stage: string, updated_at: string) => ({ id: updated_at, stage, updated_at });
  it('judges a person by their most recent candidate', () => {
    const old = '2025-01-01T00:00:00.000Z';
    const recent = '2026-06-01T00:00:00.000Z';
    const cutoff = '2026-01-01T00:00:00.000Z';
    expect(personExpired([c('rejected', old)], 'rejected_days', cutoff)).toBe(true);
    // An older rejection, a newer candidate still in play: kept.
    expect(personExpired([c('rejected', old), c('interviewed', recent)], 'rejected_days', cutoff)).toBe(false);
    expect(personExpired([c('rejected', old), c('interviewed', recent)], 'inactive_days', cutoff)).toBe(false);
    // The most recent one is not rejected: the rejected rule does not take them.
    expect(personExpired([c('rejected', old), c('applied', '2025-02-01T00:00:00.000Z')], 'rejected_days', cutoff)).toBe(false);
    expect(personExpired([c('rejected', old), c('applied', '2025-02-01T00:00:00.000Z')], 'inactive_days', cutoff)).toBe(true);
    expect(personExpired([], 'inactive_days', cutoff)).toBe(false);
  });
});

describe('decidePersonEdit', () => {
  const person = { id: 'p1', name: 'Ada', email: 'ada@example.com', updated_at: at };
  const other = (i: number, name = 'Ada') => ({ id: `c${i}`, name, email: 'ada@example.com', updated_at: at });
  it('a change of a person field edits the person and their other candidates (erased ones aside); others change nothing', () => {
    const erased = { ...other(3), erased_at: at };
    expect(decidePersonEdit('p1', { set: { name: 'Ada K' }, remove: ['phone'] }, { person, others: [other(2), erased] })).toEqual({
      edit: { personId: 'p1', person, others: [other(2)], set: { name: 'Ada K' }, remove: ['phone'] },
    });
    expect(decidePersonEdit('p1', { set: { req_id: 'r2' }, remove: [] }, { person, others: [] })).toEqual({});
    expect(decidePersonEdit(undefined, { set: { name: 'X' }, remove: [] }, undefined)).toEqual({});
  });
  it("an email another person's claim holds is email_taken naming them", () => {
    const r = decidePersonEdit('p1', { set: { email: 'b@example.com' }, remove: [] }, { person, others: [] }, 'p2');
    expect('refuse' in r && r.refuse).toMatchObject({ status: 409, code: 'email_taken', field: 'email', existingId: 'p2' });
  });
  it('a person whose candidates would not fit one transaction is person_limit', () => {
    const long = 'Ada Augusta Byron King Lovelace Countess Of Lovelace Mathematician';
    const many = Array.from({ length: 12 }, (_, i) => other(i, long));
    const r = decidePersonEdit('p1', { set: { name: 'Ada' }, remove: [] }, { person: { ...person, name: long }, others: many });
    expect('refuse' in r && r.refuse).toMatchObject({ code: 'person_limit' });
  });
});
