/**
 * X-Ray tracing (Powertools Tracer), one per cold start, for the webhook pipeline functions.
 * They wrap the shared clients (`tracer.captureAWSv3Client(ddbClient)`, and `sqs`), so each
 * DynamoDB and SQS call an invocation makes shows as its own subsegment; the document client
 * shares ddbClient's middleware stack, so it is traced too.
 *
 * Not imported by the API functions or the authorizers: the Tracer and the X-Ray SDK add about
 * 120 KB to a minified bundle (infra/bench/tracing-cost.ts), which the 400 KB budget per API
 * function cannot hold. They get their segments from Lambda's active tracing and API Gateway's.
 *
 * The Tracer turns itself off outside Lambda (no AWS_EXECUTION_ENV): locally and in tests there
 * is no X-Ray daemon, and captureAWSv3Client returns the client untouched. Two defaults are off
 * on purpose:
 * - outgoing HTTPS is not traced: a webhook receiver's URL can carry its own credentials in the
 *   query, and a trace must not hold them;
 * - responses are never recorded as metadata: they can hold candidate PII.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './env';

export const tracer = new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });

// A call outside any segment (at init, or a local run with AWS_EXECUTION_ENV set) must not print
// an error per call. Powertools sets AWS_XRAY_CONTEXT_MISSING for this, but in an ES module
// bundle the X-Ray SDK is evaluated (and reads it) first.
tracer.provider.setContextMissingStrategy('IGNORE_ERROR');
