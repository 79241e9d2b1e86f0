/** DynamoDB stream (audit intents, a tenant's STATS item) -> their expansion and the stuck index's re-index; see lib/domain/stuck-reindex.ts. */
import { stuckReindex } from '../lib/domain/stuck-reindex';
import { streamHandler } from '../lib/lambda';

export const handler = streamHandler(stuckReindex);
