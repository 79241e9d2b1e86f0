/** The SQS client of every module that queues (webhook deliveries, imports, invitations). */
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { tracer } from '../tracer';
import { clientFor } from './client-for';
import { withoutCallLogging } from './no-call-logging';

// Pure: a bundle that imports this module without queueing (the mail worker) leaves the client out.
export const sqsClient = /* @__PURE__ */ clientFor(
  () => `${config.region} ${config.sqsEndpoint}`,
  () => {
    const client = withoutCallLogging(
      new SQSClient({
        region: config.region,
        ...(config.sqsEndpoint && {
          endpoint: config.sqsEndpoint,
          // The local queue accepts any credentials; never reach for real ones locally.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }),
      }),
    );
    // Each SendMessage(Batch) as an X-Ray subsegment, in every function that queues (a no-op outside Lambda).
    tracer.captureAWSv3Client(client);
    return client;
  },
);
