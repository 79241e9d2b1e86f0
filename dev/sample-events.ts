/**
 * Writes events/: one realistic event per function, aimed at the demo workspace that
 * `npm start` seeds. Run `npm run events` after changing routes; a test checks they exist.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from '../lib/routes';
import { routes } from '../lib/routes';
import { changeIndexKey } from '../lib/store/table';
import { methodArn, proxyEvent, requestAuthorizerEvent, tokenAuthorizerEvent } from './events';
import { DEMO, demoCandidateId } from './demo-data';
import { objectCreatedEvent } from './file-worker';

const dir = join(import.meta.dirname, '..', 'events');
mkdirSync(dir, { recursive: true });

const principalId = '00000000-0000-7000-8000-000000000000';
const MISSING_ID = '0192f1a0-0000-7000-8000-00000000dead';
const contexts: Record<Route['auth'], Record<string, unknown> | undefined> = {
  token: { tenantId: DEMO.tenantId, tenantSlug: DEMO.slug, tokenId: principalId, scopes: '*', principalId, integrationLatency: 12 },
  session: {
    tenantId: DEMO.tenantId,
    tenantSlug: DEMO.slug,
    userId: DEMO.adminUserId,
    email: DEMO.adminEmail,
    role: 'admin',
    principalId: DEMO.adminUserId,
    integrationLatency: 41,
  },
  none: undefined,
};

/**
 * Placeholders that `npm run invoke` fills from DATA_DIR: {{DEMO_TOKEN}}, {{DEMO_PASSWORD}},
 * {{DEMO_SESSION}} (a fresh session of the demo admin) and {{DEMO_PERSON}} (the person of the demo's
 * first candidate).
 */
const samples: Record<
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
  'apply-to-job': {
    params: { slug: 'no-such-board', id: MISSING_ID },
    body: {
      name: 'Jordan Rivers',
      email: 'jordan.rivers@example.com',
      answers: { eu_work: true },
      consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-01' },
      source: 'linkedin',
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
  // An id that exists nowhere: invoking shows the 404 path and erases nothing.
  'erase-candidate': { params: { id: MISSING_ID } },
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

/** Fixed ids and times, so that regenerating the events changes nothing but what the routes changed. */
const SAMPLE_TIME = Date.UTC(2026, 10, 1, 9, 30);
const sampleRequestId = (handler: string) => {
  const hex = createHash('sha256').update(handler).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** `<handler>.json`; a console twin's event is `<handler>.console.json`, as both run one handler. */
const eventName = (r: Route) => (r.twinOf ? `${r.handler}.console` : r.handler);

for (const r of routes as readonly Route[]) {
  const sample = samples[r.handler] ?? {};
  const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) => sample.params?.[name] ?? name);
  const event = proxyEvent({
    requestId: sampleRequestId(eventName(r)),
    requestTimeEpoch: SAMPLE_TIME,
    method: r.method,
    path,
    resource: r.path,
    pathParameters: sample.params ?? {},
    headers: {
      Accept: 'application/json',
      ...(r.auth === 'token' && { Authorization: 'Bearer {{DEMO_TOKEN}}' }),
      ...(r.auth === 'session' && { Cookie: '__Host-tp_session={{DEMO_SESSION}}' }),
      Host: 'abc123.execute-api.us-east-1.amazonaws.com',
      'User-Agent': r.auth === 'token' ? 'curl/8.5.0' : 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      'X-Forwarded-For': '203.0.113.10',
      'X-Forwarded-Proto': 'https',
      ...(sample.body ? { 'Content-Type': 'application/json' } : {}),
      ...sample.headers,
      ...(r.auth !== 'token' &&
        r.method !== 'GET' && { Origin: 'https://abc123.execute-api.us-east-1.amazonaws.com', 'Sec-Fetch-Site': 'same-origin' }),
    },
    search: new URLSearchParams(sample.query),
    body: sample.rawBody ?? (sample.body ? JSON.stringify(sample.body) : null),
    sourceIp: '203.0.113.10',
    authorizer: contexts[r.auth],
  });
  writeFileSync(join(dir, `${eventName(r)}.json`), `${JSON.stringify(event, null, 2)}\n`);
}
writeFileSync(
  join(dir, 'authorizer.json'),
  `${JSON.stringify(tokenAuthorizerEvent('Bearer {{DEMO_TOKEN}}', 'GET', '/api/v1/pipeline'), null, 2)}\n`,
);
const sessionRoute = (routes as readonly Route[]).find((r) => r.handler === 'list-tokens')!;
const sessionEvent = proxyEvent({
  requestId: sampleRequestId('session-authorizer'),
  requestTimeEpoch: SAMPLE_TIME,
  method: sessionRoute.method,
  path: sessionRoute.path,
  resource: sessionRoute.path,
  pathParameters: {},
  headers: {
    Cookie: '__Host-tp_session={{DEMO_SESSION}}',
    Host: 'abc123.execute-api.us-east-1.amazonaws.com',
    'User-Agent': 'Mozilla/5.0',
  },
  search: new URLSearchParams(),
  body: null,
  sourceIp: '203.0.113.10',
});
writeFileSync(
  join(dir, 'session-authorizer.json'),
  `${JSON.stringify(requestAuthorizerEvent(sessionEvent, methodArn(sessionRoute.method, sessionRoute.path)), null, 2)}\n`,
);

// The stream's view of moving a demo candidate from applied to ai_screened.
const candidateKeys = { PK: { S: `T#${DEMO.tenantId}` }, SK: { S: `CAND#${demoCandidateId(2)}` } };
const candidateImage = (stage: string, at: string) => ({
  ...candidateKeys,
  type: { S: 'candidate' },
  id: { S: demoCandidateId(2) },
  tenant_id: { S: DEMO.tenantId },
  name: { S: 'Alan Turing' },
  stage: { S: stage },
  req_id: { S: DEMO.requisitions[0]!.id },
  req_title: { S: DEMO.requisitions[0]!.title },
  created_at: { S: '2026-02-03T10:00:00.000Z' },
  updated_at: { S: at },
  stage_entered_at: { S: at },
  // The updated_after feed's index keys, moved by every write.
  ...Object.fromEntries(Object.entries(changeIndexKey(DEMO.tenantId, at, demoCandidateId(2))).map(([k, v]) => [k, { S: v }])),
});
const streamArn = `arn:aws:dynamodb:us-east-1:000000000000:table/talent-pipeline/stream/2026-01-05T09:00:00.000`;
writeFileSync(
  join(dir, 'webhook-fanout.json'),
  `${JSON.stringify(
    {
      Records: [
        {
          eventID: 'c4ca4238a0b923820dcc509a6f75849b',
          eventName: 'MODIFY',
          eventVersion: '1.1',
          eventSource: 'aws:dynamodb',
          awsRegion: 'us-east-1',
          eventSourceARN: streamArn,
          dynamodb: {
            ApproximateCreationDateTime: 1795248000,
            Keys: candidateKeys,
            NewImage: candidateImage('ai_screened', '2026-11-20T09:30:00.000Z'),
            OldImage: candidateImage('applied', '2026-11-19T16:00:00.000Z'),
            SequenceNumber: '4421584500000000017450439091',
            SizeBytes: 512,
            StreamViewType: 'NEW_AND_OLD_IMAGES',
          },
        },
      ],
    },
    null,
    2,
  )}\n`,
);
const message = {
  v: 1,
  eventId: 'evt_5e1c3c9e0a7b4f2d8c6a1b3d5f7e9a0c',
  eventType: 'candidate.stage_changed',
  tenantId: DEMO.tenantId,
  endpointId: MISSING_ID,
  body: JSON.stringify({
    event: 'candidate.stage_changed',
    data: {
      candidateId: demoCandidateId(2),
      name: 'Alan Turing',
      reqId: DEMO.requisitions[0]!.id,
      oldStage: 'applied',
      newStage: 'ai_screened',
    },
    timestamp: '2026-11-20T09:30:00.000Z',
    tenantSlug: DEMO.slug,
  }),
  kept: true,
};
/** An SQS event of one message, as Lambda hands it to a queue consumer. */
const sqsEvent = (messageId: string, body: string, queue: string) => ({
  Records: [
    {
      messageId,
      receiptHandle: 'AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a...',
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: '1795248000123',
        SenderId: 'AIDAIENQZJOLO23YVJ4VO',
        ApproximateFirstReceiveTimestamp: '1795248000150',
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
      awsRegion: 'us-east-1',
    },
  ],
});
writeFileSync(
  join(dir, 'webhook-delivery.json'),
  `${JSON.stringify(sqsEvent('059f36b4-87a3-44ab-83d2-661975830a7d', JSON.stringify(message), 'webhook-deliveries'), null, 2)}\n`,
);
// The import worker's queue message for a job that exists nowhere: the run finds nothing to do.
writeFileSync(
  join(dir, 'import-worker.json'),
  `${JSON.stringify(sqsEvent('7c2a5e1b-93d4-4f6a-8b0c-1d2e3f4a5b6c', JSON.stringify({ v: 1, tenantId: DEMO.tenantId, jobId: MISSING_ID }), 'imports'), null, 2)}\n`,
);
// The stream's view of a threshold save: the demo tenant's STATS item with a re-index pending.
// Invoked, it runs one step of the stuck index's re-index (idle when nothing is pending).
const statsKeys = { PK: { S: `T#${DEMO.tenantId}` }, SK: { S: 'STATS' } };
const statsImage = (version: number, pending: boolean) => ({
  ...statsKeys,
  type: { S: 'stats' },
  total: { N: '12' },
  stuck_days: { M: { applied: { N: '2' } } },
  stuck_v: { N: String(version) },
  stuck_done_v: { N: '0' },
  ...(pending && { stuck_job: { S: 'pending' } }),
});
writeFileSync(
  join(dir, 'stuck-reindex.json'),
  `${JSON.stringify(
    {
      Records: [
        {
          eventID: 'a87ff679a2f3e71d9181a67b7542122c',
          eventName: 'MODIFY',
          eventVersion: '1.1',
          eventSource: 'aws:dynamodb',
          awsRegion: 'us-east-1',
          eventSourceARN: streamArn,
          dynamodb: {
            ApproximateCreationDateTime: 1795248000,
            Keys: statsKeys,
            NewImage: statsImage(1, true),
            OldImage: statsImage(0, false),
            SequenceNumber: '4421584500000000017450439092',
            SizeBytes: 256,
            StreamViewType: 'NEW_AND_OLD_IMAGES',
          },
        },
      ],
    },
    null,
    2,
  )}\n`,
);
// EventBridge's "Object Created" of an attached file (infra/constructs/file-worker.ts): a file
// that exists nowhere, so the worker finds no record and changes nothing.
writeFileSync(
  join(dir, 'file-worker.json'),
  `${JSON.stringify(
    {
      ...objectCreatedEvent(
        'talent-pipeline-files',
        `files/${DEMO.tenantId}/${MISSING_ID}/${MISSING_ID}`,
        48213,
        new Date('2026-11-27T09:00:00Z'),
      ),
      id: '3c9e2a41-7b5d-4e8f-9a0b-1c2d3e4f5a6b',
    },
    null,
    2,
  )}\n`,
);
// The daily retention run's EventBridge schedule (infra/constructs/retention.ts). On the demo
// data it erases nothing: no workspace has a retention rule until one is saved.
writeFileSync(
  join(dir, 'retention.json'),
  `${JSON.stringify(
    {
      version: '0',
      id: 'c4ca4238-a0b9-3382-8dcc-509a6f75849b',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '123456789012',
      time: new Date(SAMPLE_TIME).toISOString(),
      region: 'us-east-1',
      resources: ['arn:aws:events:us-east-1:123456789012:rule/TalentPipeline-prod-RetentionSchedule'],
      detail: {},
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${routes.length + 7} events to ${dir}`);
