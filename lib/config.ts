/** Configuration, read once at cold start. A missing required value stops the start loudly. */

import { required } from './env';

export const config = {
  tableName: required('TABLE_NAME'),
  /** Set only for DynamoDB Local. */
  dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
  region: process.env.AWS_REGION ?? 'us-east-1',
  /** Extra browser origins allowed to make cookie-authenticated writes (comma-separated). */
  siteOrigins: (process.env.SITE_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
};
