/**
 * The webhook payload schemas the OpenAPI document publishes (lib/webhooks/payloads.ts) match what
 * the fan-out really builds (lib/webhooks/events.ts): every event from a representative stream
 * record parses, strictly, with its type's envelope.
 */
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../lib/model';
import { envelope } from '../../lib/webhooks/events';
import { envelopeOf, type DeliveredEventType } from '../../lib/webhooks/payloads';
import { CAND, candidateImage, eventsFromRecord, type Img, REQ, streamRecord, T0, T1, TENANT } from '../helpers/lambda-records';
import { placement } from './webhook-records-fixture';

const candidate = candidateImage;
const requisition = (over: Img = {}): Img => ({
  PK: `T#${TENANT}`,
  SK: `REQ#${REQ}`,
  type: 'requisition',
  tenant_id: TENANT,
  id: REQ,
  title: 'Backend Engineer',
  department: 'Engineering',
  job_type: 'direct_hire',
  status: 'open',
  headcount: 2,
  fill_at: 1,
  version: 1,
  actor_type: 'token',
  actor_id: '01900000-0000-7000-8000-0000000000b1',
  actor_name: 'ATS sync',
  created_at: T0,
  updated_at: T0,
  ...over,
});
const reqStatus = (over: Img = {}): Img => ({
  PK: `T#${TENANT}`,
  SK: `REQ#${REQ}#H#0000000002`,
  type: 'requisition_status',
  tenant_id: TENANT,
  req_id: REQ,
  req_title: 'Backend Engineer',
  version: 2,
  to_status: 'open',
  at: T1,
  actor_type: 'user',
  actor_id: '01900000-0000-7000-8000-0000000000b2',
  actor_email: 'lee@example.com',
  ...over,
});
const importJob = (over: Img = {}): Img => ({
  PK: `T#${TENANT}`,
  SK: 'IMPORT#01900000-0000-7000-8000-0000000000c1',
  type: 'import_job',
  tenant_id: TENANT,
  id: '01900000-0000-7000-8000-0000000000c1',
  status: 'running',
  format: 'csv',
  total: 100,
  next_row: 100,
  created_at: T0,
  updated_at: T0,
  ...over,
});
const noteImage = (over: Img = {}): Img => ({
  PK: `T#${TENANT}#PERSON#01900000-0000-7000-8000-0000000000d1`,
  SK: 'NOTE#01900000-0000-7000-8000-0000000000e1',
  type: 'note',
  tenant_id: TENANT,
  id: '01900000-0000-7000-8000-0000000000e1',
  person_id: '01900000-0000-7000-8000-0000000000d1',
  candidate_id: CAND,
  body: 'Strong systems design round.',
  visibility: 'team',
  author_id: '01900000-0000-7000-8000-0000000000b2',
  created_at: T1,
  updated_at: T1,
  version: 0,
  ...over,
});
const mergeRecord = (over: Img = {}): Img => ({
  PK: `T#${TENANT}#PERSON#01900000-0000-7000-8000-0000000000d1`,
  SK: 'MERGE#01900000-0000-7000-8000-0000000000d3',
  type: 'person_merge',
  tenant_id: TENANT,
  person_id: '01900000-0000-7000-8000-0000000000d1',
  from_person_id: '01900000-0000-7000-8000-0000000000d3',
  candidate_ids: [CAND],
  at: T1,
  pending: true,
  ...over,
});
const fileItem = (over: Img = {}): Img => ({
  PK: `T#${TENANT}#PERSON#01900000-0000-7000-8000-0000000000d1`,
  SK: 'FILE#01900000-0000-7000-8000-0000000000d2',
  type: 'file',
  tenant_id: TENANT,
  id: '01900000-0000-7000-8000-0000000000d2',
  person_id: '01900000-0000-7000-8000-0000000000d1',
  kind: 'resume',
  filename: 'Zoë Ådahl CV.pdf',
  content_type: 'application/pdf',
  size: 1000,
  sha256: 'a'.repeat(64),
  status: 'processing',
  created_at: T0,
  ...over,
});
const interviewChange = (event: string, sequence: number, status = 'scheduled'): Img => ({
  PK: `T#${TENANT}`,
  SK: `IV#01900000-0000-7000-8000-0000000000c1#C#${String(sequence).padStart(6, '0')}`,
  type: 'interview_change',
  tenant_id: TENANT,
  event,
  interview_id: '01900000-0000-7000-8000-0000000000c1',
  candidate_id: CAND,
  req_id: REQ,
  step_id: '01900000-0000-7000-8000-0000000000c2',
  start: '2027-01-04T09:00:00.000Z',
  end: '2027-01-04T10:00:00.000Z',
  time_zone: 'Europe/Berlin',
  interviewers: ['01900000-0000-7000-8000-0000000000b2'],
  sequence,
  status,
  at: T1,
});
const record = streamRecord;
const OFFER_REF = { offer_id: '01900000-0000-7000-8000-0000000000d1', offer_version: 2, start_date: '2027-01-04' };

const HIRED: Img = {
  PK: `T#${TENANT}`,
  SK: 'PLACEMENT#p2',
  type: 'placement',
  id: '01900000-0000-7000-8000-0000000000f2',
  tenant_id: TENANT,
  candidate_id: CAND,
  candidate_name: 'Zoë Ådahl',
  person_id: '01900000-0000-7000-8000-0000000000e1',
  req_id: REQ,
  req_title: 'Backend Engineer',
  status: 'active',
  offer_id: '01900000-0000-7000-8000-0000000000a1',
  offer_version: 2,
  start_date: '2027-01-04',
  amount: 72000.5,
  currency: 'EUR',
  period: 'year',
  employment_type: 'direct_hire',
  location: 'Lisbon',
  recruiter_id: '01900000-0000-7000-8000-0000000000b2',
  hiring_manager_ids: ['01900000-0000-7000-8000-0000000000b1'],
  placed_at: T1,
  created_at: T1,
  updated_at: T1,
};

const scorecardVersion = (version: number, over: Img = {}): Img => ({
  PK: `T#${TENANT}#SC#${CAND}`,
  SK: `SCV#01900000-0000-7000-8000-0000000000c1#01900000-0000-7000-8000-0000000000b2#${String(version).padStart(6, '0')}`,
  type: 'scorecard_version',
  tenant_id: TENANT,
  id: '01900000-0000-7000-8000-0000000000e1',
  interview_id: '01900000-0000-7000-8000-0000000000c1',
  candidate_id: CAND,
  req_id: REQ,
  step_id: '01900000-0000-7000-8000-0000000000c2',
  interviewer_id: '01900000-0000-7000-8000-0000000000b2',
  overall: version === 1 ? 'yes' : 'strong_yes',
  ratings: [{ attribute: 'System design', rating: 'strong_yes' }],
  answers: [{ question: 'What stood out?', answer: 'Secret answer text' }],
  note: 'Secret note text',
  version,
  submitted_at: T0,
  updated_at: version === 1 ? T0 : T1,
  ...over,
});

const RECORDS = [
  record('INSERT', candidate()),
  record('INSERT', candidate({ email: undefined, req_id: undefined, req_title: undefined, stage: 'offer_sent' })),
  record('INSERT', candidate({ stage: 'offer_accepted' })),
  record('MODIFY', candidate({ stage: 'interviewed', updated_at: T1 }), candidate()),
  record('MODIFY', candidate({ stage: 'offer_sent', updated_at: T1 }), candidate({ stage: 'interviewed' })),
  // Moves an offer made (POST /api/v1/offers/{id}/status): the events name the offer.
  record('MODIFY', candidate({ stage: 'offer_sent', updated_at: T1, offer_ref: OFFER_REF }), candidate({ stage: 'interviewed' })),
  record('MODIFY', candidate({ stage: 'offer_accepted', updated_at: T1, offer_ref: OFFER_REF }), candidate({ stage: 'offer_sent' })),
  record('MODIFY', candidate({ name: 'Zoë A.', phone: '+46 70 123', updated_at: T1 }), candidate()),
  record('MODIFY', candidate({ req_id: undefined, req_title: undefined, updated_at: T1 }), candidate()),
  // The erasure: personal fields emptied, erased_at set.
  record(
    'MODIFY',
    candidate({ name: '', email: undefined, phone: undefined, resume_url: undefined, erased_at: T1, updated_at: T1 }),
    candidate(),
  ),
  record('INSERT', placement()),
  // A placement an accepted offer made: its terms and the requisition's team.
  record('INSERT', HIRED),
  // Its dates changed, then cancelled.
  record('MODIFY', { ...HIRED, start_date: '2027-02-01', end_date: '2027-12-31', updated_at: T1 }, HIRED),
  record('MODIFY', { ...HIRED, status: 'cancelled', cancelled_at: T1, cancel_reason: 'Never started', updated_at: T1 }, HIRED),
  record('INSERT', requisition()),
  record('MODIFY', requisition({ title: 'Staff Backend Engineer', headcount: 3, updated_at: T1, version: 2 }), requisition()),
  record('INSERT', reqStatus({ from_status: 'open', to_status: 'on_hold', reason: 'Budget review' })),
  record(
    'INSERT',
    reqStatus({ from_status: 'open', to_status: 'filled', actor_type: 'system', actor_id: undefined, actor_name: undefined }),
  ),
  record(
    'MODIFY',
    importJob({ status: 'completed', n_created: 97, n_skipped: 2, n_failed: 1, completed_at: T1, updated_at: T1 }),
    importJob(),
  ),
  record('INSERT', noteImage()),
  record('INSERT', mergeRecord()),
  record('MODIFY', fileItem({ status: 'ready', has_text: true, processed_at: T1 }), fileItem()),
  record('MODIFY', fileItem({ status: 'refused', refusal_code: 'file_type_not_allowed', processed_at: T1 }), fileItem()),
  record('INSERT', interviewChange('interview.scheduled', 0)),
  record('INSERT', interviewChange('interview.updated', 1)),
  record('INSERT', interviewChange('interview.cancelled', 2, 'cancelled')),
  record('INSERT', scorecardVersion(1)),
  record('INSERT', scorecardVersion(2)),
];

describe('published webhook payloads', () => {
  const events = RECORDS.flatMap(eventsFromRecord);

  it('offer.sent and offer.accepted keep their fields and add the offer, its version and start date when an offer made the move', () => {
    const offerEvents = events.filter((e) => e.type === 'offer.sent' || e.type === 'offer.accepted');
    const made = offerEvents.filter((e) => 'offerId' in e.data);
    expect(made.map((e) => e.type).sort()).toEqual(['offer.accepted', 'offer.sent']);
    for (const e of made) {
      expect(e.data).toMatchObject({ candidateId: CAND, offerId: OFFER_REF.offer_id, offerVersion: 2, startDate: '2027-01-04' });
    }
    // A stage move alone names no offer.
    expect(offerEvents.filter((e) => !('offerId' in e.data)).length).toBeGreaterThan(0);
  });

  it('a note sends ids only, and a private or admins note sends nothing', () => {
    const [created] = eventsFromRecord(record('INSERT', noteImage()));
    expect(JSON.stringify(created)).not.toContain('Strong systems');
    for (const visibility of ['private', 'admins'])
      expect(eventsFromRecord(record('INSERT', noteImage({ visibility, body: 'Private thought.' })))).toEqual([]);
  });

  it('a merge sends ids only, once: what it moves (a note, an earlier merge record) is no event', () => {
    const [merged] = eventsFromRecord(record('INSERT', mergeRecord()));
    expect(merged).toMatchObject({
      type: 'person.merged',
      data: {
        personId: '01900000-0000-7000-8000-0000000000d1',
        fromPersonId: '01900000-0000-7000-8000-0000000000d3',
        candidateIds: [CAND],
        mergedAt: T1,
      },
    });
    const movedFrom = '01900000-0000-7000-8000-0000000000d9';
    expect(eventsFromRecord(record('INSERT', mergeRecord({ moved_from: movedFrom })))).toEqual([]);
    expect(eventsFromRecord(record('INSERT', noteImage({ moved_from: movedFrom })))).toEqual([]);
    expect(eventsFromRecord(record('MODIFY', mergeRecord({ pending: undefined }), mergeRecord()))).toEqual([]);
  });

  it('an interview change sends ids, times and interviewer ids, one event per inserted change', () => {
    const sent = events.filter((e) => e.type.startsWith('interview.'));
    expect(sent.map((e) => [e.type, e.data.sequence, e.data.status])).toEqual([
      ['interview.scheduled', 0, 'scheduled'],
      ['interview.updated', 1, 'scheduled'],
      ['interview.cancelled', 2, 'cancelled'],
    ]);
    expect(sent[0]!.data).toEqual({
      interviewId: '01900000-0000-7000-8000-0000000000c1',
      candidateId: CAND,
      reqId: REQ,
      stepId: '01900000-0000-7000-8000-0000000000c2',
      start: '2027-01-04T09:00:00.000Z',
      end: '2027-01-04T10:00:00.000Z',
      timeZone: 'Europe/Berlin',
      interviewerIds: ['01900000-0000-7000-8000-0000000000b2'],
      sequence: 0,
      status: 'scheduled',
      changedAt: T1,
    });
    // A change item is never changed; were it, that would be no second event.
    expect(eventsFromRecord(record('MODIFY', interviewChange('interview.updated', 1), interviewChange('interview.updated', 1)))).toEqual(
      [],
    );
  });

  it('a scorecard sends ids and overall, never its ratings, answers or note: submitted once, then updated per version', () => {
    const sent = events.filter((e) => e.type.startsWith('scorecard.'));
    expect(sent.map((e) => [e.type, e.data.version, e.data.overall])).toEqual([
      ['scorecard.submitted', 1, 'yes'],
      ['scorecard.updated', 2, 'strong_yes'],
    ]);
    expect(sent[0]!.data).toEqual({
      scorecardId: '01900000-0000-7000-8000-0000000000e1',
      interviewId: '01900000-0000-7000-8000-0000000000c1',
      candidateId: CAND,
      reqId: REQ,
      stepId: '01900000-0000-7000-8000-0000000000c2',
      interviewerId: '01900000-0000-7000-8000-0000000000b2',
      overall: 'yes',
      version: 1,
      submittedAt: T0,
      updatedAt: T0,
    });
    expect(JSON.stringify(sent)).not.toMatch(/Secret|System design|strong_yes"\}\]/);
    // An erasure scrubs a version in place: no event. The latest version's item is no event source.
    const scrubbed = scorecardVersion(1, { ratings: undefined, answers: undefined, note: undefined, erased_at: T1 });
    expect(eventsFromRecord(record('MODIFY', scrubbed, scorecardVersion(1)))).toEqual([]);
    expect(eventsFromRecord(record('INSERT', { ...scorecardVersion(1), type: 'scorecard' }))).toEqual([]);
  });

  it('the records cover every subscribable event type', () => {
    expect([...new Set(events.map((e) => e.type))].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('file.processed carries ids and the outcome, never the filename; only the move out of processing sends it', () => {
    const sent = events.filter((e) => e.type === 'file.processed');
    expect(sent.map((e) => e.data.status)).toEqual(['ready', 'refused']);
    expect(JSON.stringify(sent)).not.toMatch(/Zoë|CV\.pdf/);
    expect(eventsFromRecord(record('INSERT', fileItem()))).toEqual([]);
    const ready = fileItem({ status: 'ready', processed_at: T1 });
    expect(eventsFromRecord(record('MODIFY', ready, ready))).toEqual([]);
  });

  it.each(events.map((e) => [e.type, e] as const))('%s parses with its published envelope', (type, e) => {
    const body = JSON.parse(envelope(e, 'acme'));
    const result = envelopeOf(type as DeliveredEventType).safeParse(body);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });
});
