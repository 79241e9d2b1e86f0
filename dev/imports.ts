/**
 * The local import pipeline: the import queue and its dead-letter queue on the local SQS server,
 * and a poller feeding functions/import-worker.ts, the module Lambda runs. `npm start` keeps its
 * SQS in memory, so at start the jobs the table shows unfinished are queued again (they resume
 * from their item: no row twice, none lost); their locks are dropped first, since no other worker
 * of this data directory can be running.
 * Needs TABLE_NAME and DYNAMODB_ENDPOINT set; sets IMPORT_QUEUE_URL (and SQS_ENDPOINT when it
 * starts its own SQS server).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteCommand, DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createSqsServer } from 'local-aws-sqs';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './events';
import { init } from './invocation';
import { startQueuePoller, wakePollersOnSend } from './queue';
import { localClient } from './table';
import { withoutCallLogging } from '../lib/aws/no-call-logging';

export const IMPORT_QUEUE = 'candidate-imports';
export const IMPORT_DLQ = 'candidate-imports-dlq';
/** The deployed worker's timeout (infra/constructs/import-queue.ts); a run queues the rest before it. */
export const IMPORT_WORKER_TIMEOUT_MS = 300_000;

export interface ImportPipeline {
  queueUrl: string;
  dlqUrl: string;
  /** Jobs found unfinished at start and queued again. */
  resumed: number;
  stop(): Promise<void>;
}

/** Unfinished jobs of the table, their locks dropped, each queued once more. */
async function resumeUnfinished(sqs: SQSClient, queueUrl: string): Promise<number> {
  const doc = DynamoDBDocumentClient.from(localClient(process.env.DYNAMODB_ENDPOINT!));
  const tableName = process.env.TABLE_NAME!;
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  // A Scan is fine here: once at local start, never on a request path.
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '#t = :lock OR (#t = :job AND #st IN (:queued, :running))',
        ExpressionAttributeNames: { '#t': 'type', '#st': 'status' },
        ExpressionAttributeValues: { ':lock': 'import_lock', ':job': 'import_job', ':queued': 'queued', ':running': 'running' },
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  for (const lock of items.filter((i) => i.type === 'import_lock')) {
    await doc.send(new DeleteCommand({ TableName: tableName, Key: { PK: lock.PK, SK: lock.SK } }));
  }
  const jobs = items.filter((i) => i.type === 'import_job').sort((a, b) => String(a.id).localeCompare(String(b.id)));
  for (const j of jobs) {
    await sqs.send(
      new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ v: 1, tenantId: j.tenant_id, jobId: j.id }) }),
    );
  }
  doc.destroy();
  return jobs.length;
}

/**
 * Start the import queue and its worker. With `sqs` (the webhook pipeline's server), the queues
 * are made there, since the functions' SQS client has one endpoint; without it, a server of its own.
 */
export async function startImportPipeline(
  opts: { sqs?: { endpoint: string; client: SQSClient }; log?: (line: string) => void; concurrency?: number } = {},
): Promise<ImportPipeline> {
  let server: Server | undefined;
  let endpoint = opts.sqs?.endpoint;
  let client = opts.sqs?.client;
  if (!endpoint || !client) {
    // Port 0, as in dev/queue.ts.
    const sqs = (await createSqsServer({
      port: 0,
      hostname: '127.0.0.1',
      accountId: LOCAL_ACCOUNT,
      region: LOCAL_REGION,
    })) as never as Server;
    server = sqs;
    wakePollersOnSend(sqs);
    endpoint = `http://127.0.0.1:${(sqs.address() as AddressInfo).port}`;
    client = withoutCallLogging(
      new SQSClient({ endpoint, region: LOCAL_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
    process.env.SQS_ENDPOINT = endpoint;
  }
  const { QueueUrl: dlqUrl } = await client.send(new CreateQueueCommand({ QueueName: IMPORT_DLQ }));
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }));
  const { QueueUrl: queueUrl } = await client.send(
    new CreateQueueCommand({
      QueueName: IMPORT_QUEUE,
      Attributes: {
        VisibilityTimeout: String((IMPORT_WORKER_TIMEOUT_MS / 1000) * 1.2),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: 5 }),
      },
    }),
  );
  process.env.IMPORT_QUEUE_URL = queueUrl!;
  const resumed = await resumeUnfinished(client, queueUrl!);
  const { handler } = await init(() => import('../functions/import-worker'));
  const poller = startQueuePoller({ client, queueUrl: queueUrl! }, handler, {
    batchSize: 1,
    concurrency: opts.concurrency ?? 2,
    log: opts.log,
    queueName: IMPORT_QUEUE,
    functionName: 'import-worker',
    timeoutMs: IMPORT_WORKER_TIMEOUT_MS,
  });
  return {
    queueUrl: queueUrl!,
    dlqUrl: dlqUrl!,
    resumed,
    stop: async () => {
      // Not awaited: a run in progress may have a whole job ahead of it. Stopping midway is safe
      // (the next start resumes the job from its item), and the process is about to end.
      void poller.stop();
      if (server) {
        client.destroy();
        await new Promise<void>((resolve) => {
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          server!.close(() => resolve());
        });
      }
    },
  };
}
