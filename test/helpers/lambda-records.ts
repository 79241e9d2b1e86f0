/** Lambda-shaped records for tests that call the webhook handlers directly. */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { streamChange } from '../../lib/lambda';
import { eventsFromChange } from '../../lib/webhooks/events';

/** Fixed ids and times of the stream-image fixtures below. */
export const TENANT = '01900000-0000-7000-8000-000000000001';
export const CAND = '01900000-0000-7000-8000-0000000000c1';
export const REQ = '01900000-0000-7000-8000-0000000000a1';
export const T0 = '2025-03-01T10:00:00.000Z';
export const T1 = '2025-03-02T11:30:15.123Z';

export type Img = Record<string, unknown>;

/** A candidate item as the table stream shows it (accents on purpose: the payloads keep them). */
export const candidateImage = (over: Img = {}): Img => ({
  PK: `T#${TENANT}`,
  SK: `CAND#${CAND}`,
  type: 'candidate',
  tenant_id: TENANT,
  id: CAND,
  name: 'Zoë Ådahl',
  email: 'zoe@example.com',
  stage: 'applied',
  req_id: REQ,
  req_title: 'Backend Engineer',
  created_at: T0,
  updated_at: T0,
  stage_entered_at: T0,
  ...over,
});

let seq = 0;
/** A stream record of a change from `oldImage` to `newImage`, with a fresh event id and sequence number. */
export function streamRecord(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', newImage?: Img, oldImage?: Img, eventID?: string): DynamoDBRecord {
  seq++;
  return {
    eventID: eventID ?? `stream-event-${seq}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      Keys: marshall({ PK: (newImage ?? oldImage)!.PK, SK: (newImage ?? oldImage)!.SK }) as never,
      ...(newImage && { NewImage: marshall(newImage, { removeUndefinedValues: true }) as never }),
      ...(oldImage && { OldImage: marshall(oldImage, { removeUndefinedValues: true }) as never }),
      SequenceNumber: String(1000 + seq),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** A stream record as Lambda delivers it: a candidate INSERT (no table write made it, so no poller sees it). */
export function candidateInsert(tenantId: string, id: string, seq: number): DynamoDBRecord {
  const at = new Date().toISOString();
  return {
    eventID: `ev-${id}`,
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: String(seq),
      NewImage: {
        type: { S: 'candidate' },
        id: { S: id },
        tenant_id: { S: tenantId },
        name: { S: `Candidate ${id}` },
        stage: { S: 'applied' },
        created_at: { S: at },
        updated_at: { S: at },
      },
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** A delivery-queue record as Lambda delivers it: message `m<i>`, first received. */
export function deliveryRecord(i: number, body: string): SQSRecord {
  return {
    messageId: `m${i}`,
    receiptHandle: `r${i}`,
    body,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:webhook-deliveries',
    awsRegion: 'us-east-1',
  };
}

/** The webhook events a stream record stands for, converted as the fan-out's adapter converts it (lib/lambda.ts). */
export const eventsFromRecord = (r: DynamoDBRecord) => eventsFromChange(streamChange(r));
