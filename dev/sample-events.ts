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
import { MISSING_ID, samples } from './sample-requests';

const dir = join(import.meta.dirname, '..', 'events');
mkdirSync(dir, { recursive: true });

const principalId = '00000000-0000-7000-8000-000000000000';
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
// The invitation worker's queue message for an interview change that exists nowhere: nothing is sent.
writeFileSync(
  join(dir, 'interview-invitations.json'),
  `${JSON.stringify(
    sqsEvent(
      '3d1f0a52-6b7e-4c8d-9e0f-1a2b3c4d5e6f',
      JSON.stringify({ v: 1, kind: 'interview_invitation', tenantId: DEMO.tenantId, interviewId: MISSING_ID, sequence: 0 }),
      'interview-invitations',
    ),
    null,
    2,
  )}\n`,
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
/** A schedule's EventBridge event for a scheduled function's sample, by its rule's construct id. */
const scheduledEvent = (id: string, rule: string) => ({
  version: '0',
  id,
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  time: new Date(SAMPLE_TIME).toISOString(),
  region: 'us-east-1',
  resources: [`arn:aws:events:us-east-1:123456789012:rule/TalentPipeline-prod-${rule}`],
  detail: {},
});
// The daily retention run's schedule (infra/constructs/retention.ts). On the demo data it erases
// nothing: no workspace has a retention rule until one is saved.
writeFileSync(
  join(dir, 'retention.json'),
  `${JSON.stringify(scheduledEvent('c4ca4238-a0b9-3382-8dcc-509a6f75849b', 'RetentionSchedule'), null, 2)}\n`,
);
// The screening rejections run's schedule (infra/constructs/screening-rejections.ts). On the
// demo data nothing is due: no demo candidate came through a screening that rejects.
writeFileSync(
  join(dir, 'screening-rejections.json'),
  `${JSON.stringify(scheduledEvent('c81e728d-9d4c-3f63-af06-7f89cc14862c', 'ScreeningRejectionsSchedule'), null, 2)}\n`,
);
// The interview follow-up runs' schedules (infra/constructs/interview-follow-up.ts). On the demo
// data nothing is due until a demo interview ends.
writeFileSync(
  join(dir, 'interview-moves.json'),
  `${JSON.stringify(scheduledEvent('eccbc87e-4b5c-3e4e-9d3e-5f2a1c0b7a11', 'InterviewMovesSchedule'), null, 2)}\n`,
);
writeFileSync(
  join(dir, 'scorecard-reminders.json'),
  `${JSON.stringify(scheduledEvent('a87ff679-a2f3-371d-9181-a67b7542122c', 'ScorecardRemindersSchedule'), null, 2)}\n`,
);
// The offer expiry run's schedule (infra/constructs/offer-expiry.ts). On the demo data nothing
// is due: no demo offer was sent with an expiry.
writeFileSync(
  join(dir, 'offer-expiry.json'),
  `${JSON.stringify(scheduledEvent('eccbc87e-4b5c-3e2f-a830-8fd9f2a7baf3', 'OfferExpirySchedule'), null, 2)}\n`,
);
console.log(`wrote ${routes.length + 11} events to ${dir}`);
