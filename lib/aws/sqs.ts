/** The SQS client of every module that queues (webhook deliveries, imports, invitations). */
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { sdkClientFor } from './client-for';

// Pure: a bundle that imports this module without queueing (the mail worker) leaves the client out.
export const sqsClient = /* @__PURE__ */ sdkClientFor(
  () => config.sqsEndpoint,
  (options) => new SQSClient(options),
);
