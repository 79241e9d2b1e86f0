/** SQS (the delivery queue) -> signed HTTPS POSTs and replay jobs; the rules are in lib/webhooks/deliver.ts. */
import { queueHandler } from '../lib/lambda';
import { DeliveryQueueMessage, webhookDelivery } from '../lib/webhooks/deliver';

export const handler = queueHandler(DeliveryQueueMessage, webhookDelivery);
