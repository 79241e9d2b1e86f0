/**
 * The applications' queue as the tests wait on it: an application is a message on the import
 * queue, and its candidate exists once the worker handled it.
 */
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { claimOwner, queryPersonCandidates } from '../../../lib/store/people';
import { until } from '../../helpers/until';

/** Every message taken in has been handled and deleted: nothing waits, nothing is in flight. */
export async function importQueueDrained(sqs: SQSClient): Promise<boolean> {
  const { Attributes: a } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: process.env.IMPORT_QUEUE_URL,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
    }),
  );
  return Object.values(a ?? {}).every((n) => n === '0');
}

/** The candidates of the person an email belongs to, once the import queue is drained. */
export async function candidatesOfEmail(sqs: SQSClient, tenantId: string, email: string) {
  await until('the import queue drained', () => importQueueDrained(sqs));
  const owner = await claimOwner(tenantId, email);
  return owner ? queryPersonCandidates(tenantId, owner) : [];
}
