/**
 * The request of each route's sample event (dev/sample-events.ts writes them to events/): its
 * path parameters, query and body, aimed at the demo workspace that `npm start` seeds.
 */
import { DEMO, demoCandidateId } from './demo-data';

/** A well-formed id that names nothing: the samples of the 404 paths. */
export const MISSING_ID = '0192f1a0-0000-7000-8000-00000000dead';

/**
 * Placeholders that `npm run invoke` fills from DATA_DIR: {{DEMO_TOKEN}}, {{DEMO_PASSWORD}},
 * {{DEMO_SESSION}} (a fresh session of the demo admin) and {{DEMO_PERSON}} (the person of the demo's
 * first candidate).
 */
export const samples: Record<
  string,
  {
    query?: Record<string, string>;
    body?: unknown;
    /** A body that is not JSON (the import's CSV), sent as is with its own Content-Type. */
    rawBody?: string;
    params?: Record<string, string>;
    headers?: Record<string, string>;
  }
> = {
  'list-candidates': { query: { stage: 'applied', limit: '20' } },
  // A dry run: every row judged, nothing written (invoking it never adds candidates).
  'create-import': {
    query: { dry_run: 'true' },
    rawBody: 'name,email,stage\nJordan Import,jordan.import@example.com,applied\nNo Email,,not-a-stage\n',
    headers: { 'Content-Type': 'text/csv' },
  },
  // An upload of a CV: a presigned POST for it, valid 10 minutes (nothing is attached).
  'create-upload': { body: { filename: 'Jordan Rivers CV.pdf', content_type: 'application/pdf', size: 48213 } },
  // A person that exists nowhere: invoking shows the 404 path and changes nothing.
  'get-upload': { params: { id: MISSING_ID } },
  'attach-file': { params: { id: MISSING_ID }, body: { upload_id: MISSING_ID, kind: 'resume' } },
  'list-files': { params: { id: MISSING_ID } },
  'get-file': { params: { id: MISSING_ID, file_id: MISSING_ID } },
  'get-file-text': { params: { id: MISSING_ID, file_id: MISSING_ID } },
  'download-file': { params: { id: MISSING_ID, file_id: MISSING_ID } },
  'delete-file': { params: { id: MISSING_ID, file_id: MISSING_ID } },
  // An import that exists nowhere: invoking shows the 404 path.
  'get-import': { params: { id: MISSING_ID } },
  'list-import-errors': { params: { id: MISSING_ID }, query: { limit: '100' } },
  'create-candidate': {
    body: { name: 'Jordan Rivers', email: 'jordan.rivers@example.com', phone: '+1 555 0199', req_id: DEMO.requisitions[0]!.id },
    // Invoking it twice shows the replay (Idempotent-Replayed: true) instead of a second candidate.
    headers: { 'Idempotency-Key': '5d0c2f4e-8f1b-4c3a-9e7d-2a6b8c0d1e3f' },
  },
  'get-candidate': { params: { id: demoCandidateId(2) } },
  // A person who exists nowhere: invoking shows the 404 path.
  'get-person': { params: { id: MISSING_ID } },
  // People who exist nowhere: invoking shows the 404 path and merges nothing.
  'merge-person': { params: { id: MISSING_ID }, body: { from: '0192f1a0-0000-7000-8000-00000000beef' } },
  'update-candidate': { params: { id: demoCandidateId(2) }, body: { email: 'alan.turing@example.com', phone: '+44 20 7946 0018' } },
  'list-requisitions': { query: { status: 'open', limit: '50' } },
  'create-requisition': {
    body: { title: 'Site Reliability Engineer', department: 'Engineering', location: 'Remote (EU)', job_type: 'direct_hire', headcount: 2 },
    headers: { 'Idempotency-Key': '7b1e9c3a-2f4d-4a6b-8c5e-0d1f2a3b4c5d' },
  },
  'get-requisition': { params: { id: DEMO.requisitions[0]!.id } },
  'update-requisition': { params: { id: DEMO.requisitions[0]!.id }, body: { headcount: 3 }, headers: { 'If-Match': '"1"' } },
  // On hold needs a reason; invoking it a second time is a no-op (200, no event).
  'change-requisition-status': { params: { id: DEMO.requisitions[3]!.id }, body: { status: 'open', from_status: 'on_hold' } },
  'get-interview-plan': { params: { id: DEMO.requisitions[0]!.id } },
  // A requisition that exists nowhere: invoking shows the 404 path and changes no demo plan.
  'put-interview-plan': {
    params: { id: MISSING_ID },
    body: { steps: [{ name: 'Technical interview', stage: 'interview_scheduled', duration_minutes: 60 }] },
  },
  // A candidate and an interview that exist nowhere: invoking shows the 404 path and books nobody.
  'create-interview': {
    params: { id: MISSING_ID },
    body: { step_id: MISSING_ID, start: '2027-01-04T09:00:00+01:00', end: '2027-01-04T10:00:00+01:00', time_zone: 'Europe/Berlin' },
  },
  'list-interviews': { query: { limit: '50' } },
  'get-interview': { params: { id: MISSING_ID } },
  'update-interview': { params: { id: MISSING_ID }, body: { location: 'Room 4' } },
  'cancel-interview': { params: { id: MISSING_ID } },
  'list-board-jobs': { params: { slug: DEMO.slug }, query: { limit: '20' } },
  'get-board-job': { params: { slug: DEMO.slug, id: MISSING_ID } },
  'careers-page': { params: { slug: DEMO.slug } },
  'careers-job-page': { params: { slug: DEMO.slug, id: MISSING_ID } },
  // A withdraw link no one signed: invoking shows the neutral page and withdraws nothing.
  'careers-withdraw-page': { params: { slug: DEMO.slug }, query: { t: 'w1.forged' } },
  'careers-withdraw': { params: { slug: DEMO.slug }, body: { t: 'w1.forged' } },
  'get-posting': { params: { id: MISSING_ID } },
  'put-posting': {
    params: { id: MISSING_ID },
    body: {
      published: true,
      description: '## About the role\n\nYou will run our pipeline platform.',
      remote: 'hybrid',
      remote_countries: ['DE'],
      salary: { min: 70000, max: 90000, currency: 'EUR', period: 'year' },
      questions: [{ id: 'eu_work', type: 'yes_no', label: 'Are you authorised to work in the EU?', required: true }],
      rules: [{ question_id: 'eu_work', op: 'eq', value: false, label: 'Not authorised to work in the EU' }],
    },
  },
  // A board that exists nowhere: invoking shows the 404 path and queues nothing.
  // The upload for an applicant's CV; on a board that does not exist the 404 comes first.
  'create-cv-upload': { params: { slug: 'no-such-board', id: MISSING_ID }, body: { form_token: 'v1.0.forged' } },
  // The careers page's CV step, the same upload answered as a page: the not-found page here.
  'careers-cv-upload': { params: { slug: 'no-such-board', id: MISSING_ID }, body: { form_token: 'v1.0.forged' } },
  // The careers page's application form, answered as a page: the not-found page here.
  'careers-apply': {
    params: { slug: 'no-such-board', id: MISSING_ID },
    body: {
      name: 'Sample Applicant',
      email: 'applicant@example.com',
      consent: { accepted: true, text: 'I accept the privacy notice.', version: '1' },
      form_token: 'v1.0.forged',
    },
  },
  'apply-to-job': {
    params: { slug: 'no-such-board', id: MISSING_ID },
    body: {
      name: 'Jordan Rivers',
      email: 'jordan.rivers@example.com',
      answers: { eu_work: true },
      consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-01' },
      source: 'linkedin',
      // What the job read hands out; on a board that does not exist the 404 comes first.
      form_token: 'v1.0.sample',
    },
  },
  'submit-scorecard': { params: { id: MISSING_ID }, body: { overall: 'yes' } },
  'list-interview-scorecards': { params: { id: MISSING_ID } },
  'list-candidate-scorecards': { params: { id: MISSING_ID } },
  'get-pipeline': {},
  'change-stage': {
    body: { candidate_id: demoCandidateId(2), stage: 'ai_screened' },
    headers: { 'Idempotency-Key': 'c8e4a1b2-3d5f-4e6a-8b7c-9d0e1f2a3b4c' },
  },
  login: { body: { email: DEMO.adminEmail, password: '{{DEMO_PASSWORD}}' } },
  'create-token': { body: { name: 'CI pipeline reader', scopes: ['pipeline:read', 'candidates:read'] } },
  // An id that exists nowhere: invoking shows the 404 path and never revokes the demo token.
  'revoke-token': { params: { id: MISSING_ID } },
  'create-webhook': {
    body: { url: 'https://hooks.example.com/talent-pipeline', events: ['placement.created'], description: 'HRIS sync' },
  },
  // Ids that exist nowhere, so invoking them shows the 404 path and changes nothing.
  'get-webhook': { params: { id: MISSING_ID } },
  'update-webhook': { params: { id: MISSING_ID }, body: { active: false } },
  'delete-webhook': { params: { id: MISSING_ID } },
  'test-webhook': { params: { id: MISSING_ID } },
  'list-webhook-deliveries': { params: { id: MISSING_ID }, query: { limit: '20', status: 'failed' } },
  'resend-webhook-event': { params: { id: MISSING_ID }, body: { event_id: 'evt_5e1c3c9e0a7b4f2d8c6a1b3d5f7e9a0c' } },
  'replay-webhook': { params: { id: MISSING_ID }, body: { since: '{{HOURS_AGO_6}}' } },
  'get-webhook-replay': { params: { id: MISSING_ID } },
  'rotate-webhook-secret': { params: { id: MISSING_ID }, body: { grace_seconds: 86400 } },
  // A wrong current password: invoking shows the 400 path and never changes the demo password.
  'change-password': { body: { current_password: 'not the current password', new_password: 'a new long passphrase' } },
  // Clears the demo admin's zone (none is set): the console then reads the browser's.
  'set-time-zone': { body: { time_zone: null } },
  'update-pipeline-settings': { body: { stuck_days: { applied: 2, interviewed: 4 } } },
  'add-member': { body: { email: 'new.recruiter@demo.example', role: 'recruiter' } },
  'change-member-role': { params: { id: MISSING_ID }, body: { role: 'admin' } },
  'remove-member': { params: { id: MISSING_ID } },
  'deactivate-member': { params: { id: MISSING_ID } },
  'reactivate-member': { params: { id: MISSING_ID } },
  // An id that exists nowhere: invoking shows the 404 path and never rotates the demo token.
  'rotate-token': { params: { id: MISSING_ID }, body: { grace_seconds: 3600 } },
  // The defaults again: invoking it changes nothing a demo user would notice.
  'update-token-settings': { body: { default_days: 90, max_days: 366 } },
  // The demo's careers pages then name it so, with a privacy notice link; nothing else changes.
  'update-careers-settings': {
    body: { careers_name: 'Demo Company', careers_logo_url: null, careers_privacy_url: 'https://example.com/privacy' },
  },
  // An id that exists nowhere: invoking shows the 404 path and erases nothing.
  'erase-candidate': { params: { id: MISSING_ID } },
  'overturn-screening': { params: { id: MISSING_ID } },
  'reset-member-password': { params: { id: MISSING_ID } },
  'clear-member-lockout': { params: { id: MISSING_ID } },
  // Ids that exist nowhere: invoking shows the 404 path and never drafts or moves a demo offer.
  'create-offer': {
    params: { id: MISSING_ID },
    body: { compensation: { amount: 98000, currency: 'EUR', period: 'year' }, start_date: '2027-01-04', employment_type: 'direct_hire' },
  },
  'list-offers': { params: { id: MISSING_ID } },
  'get-offer': { params: { id: MISSING_ID } },
  'update-offer': { params: { id: MISSING_ID }, body: { compensation: { amount: 101000, currency: 'EUR', period: 'year' } } },
  'change-offer-status': { params: { id: MISSING_ID }, body: { status: 'pending_approval' } },
  'list-placements': { query: { limit: '50' } },
  'get-placement': { params: { id: MISSING_ID } },
  // An id that exists nowhere: invoking shows the 404 path and changes no demo placement.
  'update-placement': { params: { id: MISSING_ID }, body: { start_date: '2027-02-01' } },
  'cancel-placement': { params: { id: MISSING_ID }, body: { reason: 'Never started' } },
  // A candidate who exists nowhere: invoking shows the 404 path and places no demo candidate.
  'create-placement': {
    params: { id: MISSING_ID },
    body: {
      start_date: '2027-02-01',
      compensation: { amount: 98000, currency: 'EUR', period: 'year' },
      employment_type: 'direct_hire',
      location: 'Berlin',
    },
  },
  'decide-offer-approval': { params: { id: MISSING_ID }, body: { decision: 'approve', comment: 'Within band' } },
  // An empty chain: the demo workspace has none, so invoking it changes nothing.
  'update-offer-approvals': { body: { steps: [] } },
  // A person who exists nowhere (create, list), and a note that exists nowhere on the demo's first
  // person (get, update, delete: the note's own 404, as the person is found first): invoking shows
  // the 404 paths and writes nothing.
  'create-note': { params: { id: MISSING_ID }, body: { body: 'Strong systems design round.', visibility: 'team' } },
  'list-notes': { params: { id: MISSING_ID }, query: { limit: '20' } },
  'get-note': { params: { id: '{{DEMO_PERSON}}', note_id: MISSING_ID } },
  'update-note': {
    params: { id: '{{DEMO_PERSON}}', note_id: MISSING_ID },
    body: { body: 'Strong systems design round; references next.' },
  },
  'delete-note': { params: { id: '{{DEMO_PERSON}}', note_id: MISSING_ID } },
  'list-activity': { params: { id: MISSING_ID }, query: { limit: '20' } },
  'list-mentions': { query: { limit: '20' } },
  'list-offer-approvals': { query: { limit: '25' } },
  'read-mention': { params: { id: MISSING_ID } },
  'reset-member-two-factor': { params: { id: MISSING_ID } },
  // The sample session is fully signed in: the second step answers 409 and signs nobody in.
  'verify-two-factor': { body: { code: '000000' } },
  // Not six digits: the 400 path, whatever set-up the demo admin has started.
  'confirm-two-factor': { body: { code: 'not-a-code' } },
  // The demo admin has no two-factor: 200, no password checked, nothing changes.
  'disable-two-factor': { body: { password: 'not the password' } },
  'update-two-factor-settings': { body: { required_for: 'off' } },
};
