/**
 * X-Ray tracing (Powertools Tracer), one per cold start. It wraps the AWS clients where they are
 * built: the table's (lib/store/client.ts), the queues' (lib/webhooks/queue.ts, lib/imports/queue.ts,
 * lib/invitations/queue.ts), SES's (lib/email/send.ts) and API Gateway's (lib/auth/usage-keys.ts).
 * So each DynamoDB, SQS, SES and API Gateway call a function makes shows as its own subsegment, in
 * every function; the document client shares ddbClient's middleware stack, so it is traced too.
 *
 * What it costs (`npx tsx scripts/bench/tracing-cost.ts`): ~78 KB of each minified bundle, after
 * the stack's aliases leave out the parts of the X-Ray SDK that cannot run in our Lambdas
 * (lib/aws/xray-sdk-core.ts; ~120 KB with the SDK's own entry). Every function ships with it,
 * within the 400 KB budget (infra/constructs/table-function.ts).
 *
 * No handler subsegment (captureLambdaHandler): the SDK calls hang off Lambda's function segment
 * directly, and cold starts are already a metric (lib/metrics.ts).
 *
 * The Tracer turns itself off outside Lambda (no AWS_EXECUTION_ENV): locally and in tests there
 * is no X-Ray daemon, and captureAWSv3Client returns the client untouched. Two defaults are off
 * on purpose:
 * - outgoing HTTPS is not traced: a webhook receiver's URL can carry its own credentials in the
 *   query, and a trace must not hold them;
 * - responses are never recorded as metadata: they can hold candidate PII.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './config';

export const tracer = new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });

// A call outside any segment (at init, or a local run with AWS_EXECUTION_ENV set) must not print
// an error per call. Powertools sets AWS_XRAY_CONTEXT_MISSING for this, but in an ES module
// bundle the X-Ray SDK is evaluated (and reads it) first.
tracer.provider.setContextMissingStrategy('IGNORE_ERROR');
