/**
 * The local invitation pipeline: the invitation queue and its dead-letter queue on the webhook
 * pipeline's SQS server (the fan-out's client has one endpoint), and a poller feeding
 * functions/interview-invitations.ts, the module Lambda runs, which sends through the local SES.
 * Started only where mail is set up (MAIL_FROM, as dev/files-and-mail.ts sets it), as the stack
 * deploys the worker only with a mail domain. Sets INVITATION_QUEUE_URL.
 */
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { INVITATION_MAX_RECEIVES, INVITATION_WORKER_TIMEOUT_S } from '../lib/invitations/queue';
import { init } from './invocation';
import { type LocalQueues, startQueuePoller } from './queue';

export const INVITATION_QUEUE = 'interview-invitations';
export const INVITATION_DLQ = 'interview-invitations-dlq';

export async function startInvitationPipeline(opts: {
  sqs: Pick<LocalQueues, 'client'>;
  log?: (line: string) => void;
}): Promise<{ queueUrl: string; stop(): Promise<void> }> {
  const { client } = opts.sqs;
  const { QueueUrl: dlqUrl } = await client.send(new CreateQueueCommand({ QueueName: INVITATION_DLQ }));
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }));
  const { QueueUrl: queueUrl } = await client.send(
    new CreateQueueCommand({
      QueueName: INVITATION_QUEUE,
      Attributes: {
        VisibilityTimeout: String(INVITATION_WORKER_TIMEOUT_S * 6),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: INVITATION_MAX_RECEIVES }),
      },
    }),
  );
  process.env.INVITATION_QUEUE_URL = queueUrl!;
  const { handler } = await init(() => import('../functions/interview-invitations'));
  const poller = startQueuePoller({ client, queueUrl: queueUrl! }, handler, {
    batchSize: 10,
    concurrency: 1,
    log: opts.log,
    queueName: INVITATION_QUEUE,
    functionName: 'interview-invitations',
    timeoutMs: INVITATION_WORKER_TIMEOUT_S * 1000,
  });
  return { queueUrl: queueUrl!, stop: () => poller.stop() };
}
