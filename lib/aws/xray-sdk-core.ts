/**
 * What the Lambda bundles use in place of `aws-xray-sdk-core`'s entry module (an esbuild alias in
 * infra/constructs/table-function.ts LAMBDA_ALIASES). The Powertools Tracer reads only the members
 * exported below; the SDK's own entry (dist/lib/aws-xray.js) requires every module of the SDK at
 * load, and esbuild cannot drop any part of a CommonJS object. This entry loads the SDK's own
 * modules for what runs in our Lambdas and leaves out what cannot, measured at ~39 KB of each
 * minified bundle (`npx tsx scripts/bench/tracing-cost.ts`):
 * - the AWS SDK v2 patcher (patchers/aws_p.js), and with it `semver` (~28 KB), which it needs only
 *   to check an SDK v2 version: we use SDK v3 clients (captureAWSv3Client, patchers/aws3_p.js);
 * - the HTTP(S) patcher and the promise patcher: lib/tracer.ts sets captureHTTPsRequests false
 *   (webhook URLs can carry credentials), so Powertools never calls captureHTTPsGlobal;
 * - the EC2, ECS and Elastic Beanstalk plugins, the SQL data class and the Express-style
 *   middleware exports: none of them runs in Lambda, and nothing of ours calls them;
 * - the whole package.json, read only for the SDK's name and version (imported here by field).
 * What the Tracer calls is the SDK's own code, unchanged: context (cls-hooked), segments and
 * subsegments, the UDP emitter to the X-Ray daemon, capture, the SDK v3 patcher, and the Lambda
 * set-up (env/aws_lambda.js: the facade segment) that the SDK's entry runs when LAMBDA_TASK_ROOT
 * is set. Anything left out throws if called, so a change of configuration fails loudly.
 *
 * The SDK's modules are imported by path from node_modules because the alias also rewrites
 * `aws-xray-sdk-core/…` subpaths to this file. test/unit/tracing-bundles.test.ts bundles a function
 * and checks that this entry is what it carries and that its DynamoDB calls still reach the X-Ray
 * daemon as subsegments.
 * Local runs and tests are not bundled and load the real SDK (where the Tracer is off anyway).
 */
import * as capture from '../../node_modules/aws-xray-sdk-core/dist/lib/capture.js';
import * as contextUtils from '../../node_modules/aws-xray-sdk-core/dist/lib/context_utils.js';
import * as daemonConfig from '../../node_modules/aws-xray-sdk-core/dist/lib/daemon_config.js';
// @ts-expect-error: the SDK ships no declarations for its Lambda set-up module.
import * as lambdaEnv from '../../node_modules/aws-xray-sdk-core/dist/lib/env/aws_lambda.js';
import * as logging from '../../node_modules/aws-xray-sdk-core/dist/lib/logger.js';
import { config } from '../config';
import { name, version } from '../../node_modules/aws-xray-sdk-core/package.json';
import { captureAWSClient as captureAWSv3Client } from '../../node_modules/aws-xray-sdk-core/dist/lib/patchers/aws3_p.js';
import Subsegment from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/attributes/subsegment.js';
import Segment from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/segment.js';
import * as segmentUtils from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/segment_utils.js';

const notBundled = (what: string) => () => {
  throw new Error(`aws-xray-sdk-core ${what} is not bundled (lib/aws/xray-sdk-core.ts)`);
};

// What the SDK's entry does at load: name the SDK and the runtime on every segment, then, in
// Lambda, create the facade segment that subsegments attach to.
segmentUtils.setSDKData({ sdk: 'X-Ray for Node.js', sdk_version: version, package: name });
segmentUtils.setServiceData({
  runtime: process.release?.name ?? 'unknown',
  runtime_version: process.version,
  version: config.npmPackageVersion ?? 'unknown',
  name: config.npmPackageName ?? 'unknown',
});
if (config.inLambda) (lambdaEnv as { init: () => void }).init();

export default {
  captureAWSv3Client,
  captureAsyncFunc: capture.captureAsyncFunc,
  captureFunc: capture.captureFunc,
  getNamespace: contextUtils.getNamespace,
  getSegment: contextUtils.getSegment,
  setSegment: contextUtils.setSegment,
  setContextMissingStrategy: contextUtils.setContextMissingStrategy,
  setDaemonAddress: daemonConfig.setDaemonAddress,
  setLogger: logging.setLogger,
  Segment,
  Subsegment,
  captureAWS: notBundled('captureAWS (SDK v2)'),
  captureAWSClient: notBundled('captureAWSClient (SDK v2)'),
  captureHTTPsGlobal: notBundled('captureHTTPsGlobal (captureHTTPsRequests is off)'),
};
