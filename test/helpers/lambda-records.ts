/** Lambda-shaped records for tests that call the webhook handlers directly. */
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';

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
