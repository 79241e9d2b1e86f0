/** DynamoDB stream (a tenant's STATS item) -> one step of the stuck index's re-index; see lib/domain/stuck-reindex.ts. */
import { stuckReindex } from '../lib/domain/stuck-reindex';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(stuckReindex);
