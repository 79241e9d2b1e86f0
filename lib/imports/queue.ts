/** The import queue: one message per job run; the worker picks the job up where its item says. */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { withoutCallLogging } from '../aws/no-call-logging';
import { config } from '../config';
import { tracer } from '../tracer';

export const ImportMessage = z.object({
  v: z.literal(1),
  tenantId: z.string(),
  jobId: z.string(),
  /** Runs of the job that failed in a row before this one (a run that ends normally resets it). */
  failures: z.optional(z.int()),
});
export type ImportMessage = z.infer<typeof ImportMessage>;

let client: SQSClient | undefined;
const sqs = () => {
  if (!client) {
    client = withoutCallLogging(
      new SQSClient({
        region: config.region,
        ...(config.sqsEndpoint && { endpoint: config.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      }),
    );
    tracer.captureAWSv3Client(client);
  }
  return client;
};

/** Queue a run of the job, after `delayS` seconds (a workspace busy with another import). */
export async function queueImport(m: Omit<ImportMessage, 'v'>, delayS = 0): Promise<void> {
  const message: ImportMessage = { v: 1, ...m };
  await sendToImportQueue(message, delayS);
}

/** One message on the import queue (an import run, or an application: lib/applications/queue.ts). */
export async function sendToImportQueue(message: unknown, delayS = 0): Promise<void> {
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: config.importQueueUrl,
      MessageBody: JSON.stringify(message),
      ...(delayS > 0 && { DelaySeconds: delayS }),
    }),
  );
}
