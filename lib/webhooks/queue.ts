/** The delivery queue: one message per (event, endpoint). Client built once per cold start. */
import { SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { required } from '../env';


export const queueConfig = {
  queueUrl: required('WEBHOOK_QUEUE_URL'),
  dlqUrl: required('WEBHOOK_DLQ_URL'),
};

export const sqs = new SQSClient({
  region: process.env.AWS_REGION ?? 'us-east-1',
  ...(process.env.SQS_ENDPOINT && {
    endpoint: process.env.SQS_ENDPOINT,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
});

/** What the fan-out enqueues. `body` is the exact envelope every attempt sends and signs. */
export const DeliveryMessage = z.object({
  v: z.literal(1),
  eventId: z.string(),
  eventType: z.string(),
  tenantId: z.string(),
  endpointId: z.string(),
  body: z.string(),
});
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;
