/** The import queue: one message per job run; the worker picks the job up where its item says. */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { sqsClient } from '../aws/sqs';
import { config } from '../config';

export const ImportMessage = z.object({
  v: z.literal(1),
  tenantId: z.string(),
  jobId: z.string(),
  /** Runs of the job that failed in a row before this one (a run that ends normally resets it). */
  failures: z.optional(z.int()),
});
export type ImportMessage = z.infer<typeof ImportMessage>;

/** Queue a run of the job, after `delayS` seconds (a workspace busy with another import). */
export async function queueImport(m: Omit<ImportMessage, 'v'>, delayS = 0): Promise<void> {
  const message: ImportMessage = { v: 1, ...m };
  await sendToImportQueue(message, delayS);
}

/** One message on the import queue (an import run, or an application: lib/applications/queue.ts). */
export async function sendToImportQueue(message: unknown, delayS = 0): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: config.importQueueUrl,
      MessageBody: JSON.stringify(message),
      ...(delayS > 0 && { DelaySeconds: delayS }),
    }),
  );
}
