/** SQS (the delivery queue) -> signed HTTPS POSTs and replay jobs; the rules are in lib/webhooks/deliver.ts. */
import { lambdaHandler } from '../lib/lambda';
import { webhookDelivery } from '../lib/webhooks/deliver';

export const handler = lambdaHandler(webhookDelivery);
