/**
 * Bundles one function with esbuild's API, for the stack (infra/constructs/table-function.ts runs
 * this file with node, one process per function, as CDK's NodejsFunction runs the esbuild CLI) and
 * for the bench and tests (they import lambdaPlugins). Plain JavaScript so node runs it without a
 * TypeScript loader; its types are in lambda-bundle.d.mts.
 *
 * The CLI cannot take plugins, and these three cut what aliases cannot reach, because the code
 * that pulls it in imports it by a relative path:
 * - schemaKeys: the AWS SDK's REST clients (SESv2, API Gateway) declare each operation's schema
 *   with a computed key, `{ [_h]: ["POST", "/path", 200] }`, where `_h` is a module constant. esbuild
 *   cannot prove a computed key free of side effects, so it keeps every operation's schema, and
 *   every shape those name, in each bundle that sends one command. Writing the constant's string in
 *   its place gives the same object, which esbuild then drops when unused.
 * - xrayInLambda, two parts of the X-Ray SDK that lib/aws/xray-sdk-core.ts loads through modules
 *   it needs: its list of the request and response fields it records per AWS service, cut to the
 *   services whose clients we trace and that it lists (XRAY_SERVICES; the others' entries, S3's
 *   most of all, are never read); and its centralized sampler, with the pollers and the client of
 *   X-Ray's sampling API, in place of which the local sampler is loaded: the Lambda set-up
 *   (env/aws_lambda.js, run at load in Lambda) swaps the centralized sampler for the local one
 *   before anything samples, and the Tracer is off outside Lambda.
 * - clientPackageInfo: each SDK client imports its whole package.json for one field, its version
 *   (the user agent); the bundle gets its name and version only.
 *
 *   node infra/constructs/lambda-bundle.mjs '<esbuild options as JSON>'
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Services of the X-Ray SDK's whitelist that our traced clients call (DynamoDB, SQS; SES and API Gateway are not in it). */
export const XRAY_SERVICES = ['dynamodb', 'sqs'];

/** @type {import('esbuild').Plugin} */
const schemaKeys = {
  name: 'sdk-schema-keys',
  setup(b) {
    b.onLoad({ filter: /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/]schemas_\d+\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      /** @type {Map<string, string>} */
      const strings = new Map();
      for (const m of source.matchAll(/^const (_\w+) = ("[^"\\\n]*");$/gm)) strings.set(m[1], m[2]);
      return { contents: source.replace(/\[(_\w+)\]:/g, (key, name) => (strings.has(name) ? `${strings.get(name)}:` : key)), loader: 'js' };
    });
  },
};

/** @type {import('esbuild').Plugin} */
const xrayInLambda = {
  name: 'xray-in-lambda',
  setup(b) {
    b.onLoad({ filter: /[\\/]aws-xray-sdk-core[\\/]dist[\\/]lib[\\/]resources[\\/]aws_whitelist\.json$/ }, (args) => {
      const { services } = JSON.parse(readFileSync(args.path, 'utf8'));
      const kept = Object.fromEntries(XRAY_SERVICES.filter((s) => services[s]).map((s) => [s, services[s]]));
      return { contents: JSON.stringify({ services: kept }), loader: 'json' };
    });
    b.onLoad({ filter: /[\\/]aws-xray-sdk-core[\\/]dist[\\/]lib[\\/]middleware[\\/]sampling[\\/]default_sampler\.js$/ }, () => ({
      contents: "module.exports = require('./local_sampler');",
      loader: 'js',
    }));
  },
};

/** @type {import('esbuild').Plugin} */
const clientPackageInfo = {
  name: 'sdk-client-package-info',
  setup(b) {
    b.onLoad({ filter: /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]package\.json$/ }, (args) => {
      const { name, version } = JSON.parse(readFileSync(args.path, 'utf8'));
      return { contents: JSON.stringify({ name, version }), loader: 'json' };
    });
  },
};

export const lambdaPlugins = () => [schemaKeys, xrayInLambda, clientPackageInfo];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await build({ ...JSON.parse(process.argv[2] ?? '{}'), plugins: lambdaPlugins() });
}
