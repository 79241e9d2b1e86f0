import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const CONTENTION = [
  'test/integration/concurrency.test.ts',
  'test/integration/requisition-concurrency.test.ts',
  'test/integration/counters-contention.test.ts',
  'test/integration/audit-contention.test.ts',
  'test/integration/interview-progress-contention.test.ts',
];
// The self-signed certificate of the test HTTPS receivers, for every tier that runs the sender;
// and the console built once (test/helpers/console-setup.ts) for the tiers that run `npm start`.
const WITH_TLS = { globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/console-setup.ts'] };
// The tiers that run the handlers in the test's process: one DynamoDB Local per worker for each
// project (every test file makes its own table), and passwords hashed at a test cost
// (test/helpers/cheap-passwords.ts). e2e and browser start `npm start`, which runs its own.
// DYNAMODB_LOCAL_JIT: the `npm start`s of the e2e and browser files run DynamoDB Local with the
// quick JIT, as the in-process tiers do (dev/dynamodb.ts): minutes of light load, where the
// optimising JIT only costs (e2e and browser together: 212 s of CPU with it, 150 s without).
const ENV = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'WARN', DYNAMODB_LOCAL_JIT: 'quick' };
/** The unit tier's CDK context (CDK_CONTEXT_JSON): no creation or metadata stack traces. */
export const UNIT_CDK_CONTEXT = JSON.stringify({ 'aws:cdk:disable-stack-trace': true, 'aws:cdk:disable-creation-stack-traces': true });
const IN_PROCESS = {
  globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/dynamodb-setup.ts'],
  // table-env.ts first: the file's TABLE_NAME and DYNAMODB_ENDPOINT, set before anything loads lib/.
  setupFiles: ['test/helpers/table-env.ts', 'test/helpers/cheap-passwords.ts'],
  // The X-Ray SDK without its automatic mode, as `npm start` runs the functions (dev/untraced.ts),
  // and no EMF metric lines (thousands per run), as `npm start` prints none: the files that
  // check metrics turn them back on. AWS_LAMBDA_INITIALIZATION_TYPE: what Lambda sets for an
  // on-demand instance, read as lib/metrics.ts loads; Powertools counts a cold start only then.
  env: { ...ENV, AWS_XRAY_MANUAL_MODE: 'true', POWERTOOLS_METRICS_DISABLED: 'true', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' },
};

/**
 * Tiers (docs/testing.md): `unit` needs no Java and no network; `integration` runs the real
 * handlers against DynamoDB Local; `e2e` spawns `npm start` and the CLIs as subprocesses;
 * `browser` drives Debian's Chromium against `npm start`. `npm test` runs them all.
 */
export default defineConfig({
  test: {
    env: ENV,
    pool: 'forks',
    // One test file per core (Node's count, which follows a container's CPU quota), from two to
    // eight. The suite is bound by CPU (its files, their DynamoDB Locals, npm starts and Chromiums
    // keep the cores busy), so a larger machine runs it faster only with a worker for each core.
    // Left to its default (a core less), vitest ran one file at a time on two cores, where most
    // files wait on DynamoDB Local or a subprocess: a second worker fills the idle core, and a
    // third bought nothing. The ceiling is for memory: each worker has two DynamoDB Locals
    // (integration and contention) and, in the browser tier, an npm start and a Chromium.
    maxWorkers: Math.min(8, Math.max(2, availableParallelism())),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      // Its global setup only makes room for the one shared synth of the stack (test/helpers/stack-synth.ts).
      // Not isolated: each worker loads aws-cdk-lib and the stack once for all its files instead of
      // once per file (the unit tier's CPU time halves: 196 s -> 98 s on two cores). So a unit test
      // must leave no global state behind: it restores spies, stubbed env and process.env itself.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          isolate: false,
          globalSetup: ['test/helpers/unit-global-setup.ts'],
          // A table name that no unit test reaches, so a unit file imports lib/store statically (the
          // store's client checks it as it loads); test/unit/config.test.ts unsets it for its cold starts.
          // CDK_VALIDATION off: aws-cdk-lib's built-in CloudFormation check (a WASM engine each
          // process compiles, run on every synth) only ever warns unless an app opts into failing,
          // and no test reads its warnings; it was the larger part of a synth's cost here.
          // `cdk synth` and `cdk deploy` still run it.
          // CDK_CONTEXT_JSON (context every App reads): no stack trace recorded per construct and
          // acknowledgement, which no test reads (test/helpers/unit-global-setup.ts's synth too).
          env: { ...ENV, TABLE_NAME: 'unit-no-table', CDK_VALIDATION: 'false', CDK_CONTEXT_JSON: UNIT_CDK_CONTEXT },
        },
      },
      // One module graph per worker for most files (isolate: false): lib/, dev/ and the handlers are
      // transformed and loaded once per worker, not once per file. Each file still gets its own
      // table and its worker's starting environment (test/helpers/table-env.ts, before each file).
      // What lives on in the shared graph, and why it cannot reach the next file:
      // - settings: lib/config.ts reads them at each use; the SQS, SES and S3 clients are rebuilt
      //   when the endpoint changes (lib/aws/client-for.ts); the DynamoDB client's endpoint is the
      //   worker's; recordDynamoDbCommands drops an earlier file's recorder.
      // - caches keyed by random ids: tenant slugs (lib/webhooks/fanout.ts), stuck thresholds
      //   (lib/store/stuck.ts), expanded audit intents (test/helpers/audit.ts); the gateway's
      //   authorizer, rate-limit and handler caches belong to each createGateway.
      // - constants: lib/api/session.ts's time zones, lib/auth/usage-keys.ts's plan id (found only
      //   under USAGE_PLAN_NAME, which rate-limits.test.ts alone sets, with the SDK stubbed).
      // - a folder's fixture.ts (auth/, calls/, console-api/, malformed/, webhooks/*/): each file
      //   calls its `use...Fixture()`, which registers that file's hooks and empties what the
      //   fixture records (secrets, deliveries, DynamoDB commands).
      // - Powertools: the logger's level is the worker's, except in a file that raises it for its
      //   run (test/helpers/log-level.ts: logging.test.ts, webhooks/api/); the metrics switch is read
      //   from the environment as each EMF line is made (lib/metrics.ts: an instance per line or
      //   invocation), so a file that turns metrics on sets it in process.env, which table-env.ts
      //   resets; the cold start that logging.test.ts counts it marks again, then puts back.
      // - middleware on a shared SDK client is added by name and removed by the file that adds it.
      // - spies on prototypes are restored by the files that make them, fake timers by the files
      //   that fake them (after each test), and a faked clock is only ever set back (the IDs of
      //   later files would stay ahead: table-env.ts checks); no file adds process handlers, and none uses vi.mock,
      //   which would hold for every later file of the worker (test/helpers/held-import-queue.ts
      //   stands in for the import queue instead).
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: CONTENTION,
          isolate: false,
          ...IN_PROCESS,
        },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], ...WITH_TLS } },
      // Fifty writers racing on five items, each against the route's 10 s timeout as deployed:
      // beside the other files on two cores the losers' retries run past it. They run alone, and
      // share a module graph per worker as `integration` does (they hold nothing global).
      {
        extends: true,
        test: { name: 'contention', include: CONTENTION, isolate: false, sequence: { groupOrder: 1 }, ...IN_PROCESS },
      },
      // In the first group with the rest, where its two files start first (vitest orders a group's
      // projects by name): the longest files start first and the short ones fill in at the end.
      // Run after the rest, the browser files' last 35 s kept one core idle.
      // One `npm start` per worker, shared by its browser files, each in a workspace of its own
      // (test/helpers/browser-runtime.ts); started in the main process, which stops them at the end.
      // Not isolated: a worker loads Playwright and the helpers and launches Chromium once for all
      // its files (test/helpers/browser-suite.ts); a file holds nothing global (no mocks, env or
      // timers), only its own browser contexts, which it closes at its end.
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          isolate: false,
          globalSetup: [...WITH_TLS.globalSetup, 'test/helpers/browser-runtime.ts'],
        },
      },
    ],
  },
});
