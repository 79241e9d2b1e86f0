/** DynamoDB stream -> the delivery queue; the rules are in lib/webhooks/fanout.ts. */
import { streamHandler } from '../lib/lambda';
import { webhookFanout } from '../lib/webhooks/fanout';

export const handler = streamHandler(webhookFanout);
