/** Configuration, read once at cold start. A missing required value stops the start loudly. */

import { required } from './env';

export const config = {
  tableName: required('TABLE_NAME'),
  /** Set only for DynamoDB Local. */
  dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
  region: process.env.AWS_REGION ?? 'us-east-1',
  /** The value CloudFront sends in X-Origin-Verify; unset when nothing fronts the API. */
  originVerify: process.env.ORIGIN_VERIFY || undefined,
};
