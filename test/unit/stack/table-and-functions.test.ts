/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the table (keys from
 * TABLE_DEF, stream, PITR, retention), the functions (runtime, environment, timeouts, log groups)
 * and the Lambda bundles themselves (minified ESM that loads under Node).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { TABLE_DEF } from '../../../lib/store/table';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../../lib/webhooks/config';
import {
  API_INTEGRATION_TIMEOUT_S,
  DEFAULT_ROUTE_TIMEOUT_S,
  SESSION_AUTHORIZER_MODULE,
  TOKEN_AUTHORIZER_MODULE,
} from '../../../infra/constructs/route-api';
import { DELIVERY_ATTEMPTS } from '../../../infra/constructs/webhook-pipeline';
import { INVITATIONS_MODULE } from '../../../infra/constructs/interview-invitations';
import { SCORECARD_REMINDERS_MODULE } from '../../../infra/constructs/interview-follow-up';
import { PROJECT_ROOT } from '../../../infra/constructs/table-function';
import { FILE_WORKER_BUDGET, FILE_WORKER_MODULE } from '../../../infra/constructs/file-worker';
import {
  actionsOf,
  appFunctions,
  assetDirByKey,
  authorizerCount,
  authorizerFunctionIds,
  BUNDLES_DIR,
  extraFunctionCount,
  functionIn,
  functionOf,
  label,
  LOCAL_ONLY_ENV,
  methodFor,
  ofType,
  pascal,
  PIPELINE_MODULES,
  resources,
  routeFunctionIds,
  ROUTES,
  SESSION_ROUTES,
  tableId,
  template,
  type Json,
} from './fixture';

/**
 * The script of a thread that loads bundles one after another (the cold-start test below): for
 * each, exactly its function's environment, then `import()`, then the globals put back as the
 * thread started. It posts `[id, typeof handler]`, or the error that failed the import.
 */
const LOAD_EACH = `
const { parentPort, workerData } = require('node:worker_threads');
const initial = new Map(Reflect.ownKeys(globalThis).map((k) => [k, Object.getOwnPropertyDescriptor(globalThis, k)]));
function restoreGlobals() {
  for (const k of Reflect.ownKeys(globalThis)) if (!initial.has(k)) delete globalThis[k];
  for (const [k, d] of initial) {
    const now = Object.getOwnPropertyDescriptor(globalThis, k);
    if (!now || now.value !== d.value || now.get !== d.get || now.set !== d.set) Object.defineProperty(globalThis, k, d);
  }
}
(async () => {
  for (const { id, url, env } of workerData) {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, env);
    let out;
    try {
      out = typeof (await import(url)).handler;
    } catch (err) {
      out = 'fails its cold start: ' + (err && err.name) + ': ' + (err && err.message);
    }
    restoreGlobals();
    parentPort.postMessage([id, out]);
  }
})();
`;

describe('table', () => {
  it('is derived from TABLE_DEF: keys, string attributes, both GSIs with projection ALL', () => {
    const { Properties: p } = resources[tableId()]!;
    expect(p.KeySchema).toEqual([
      { AttributeName: TABLE_DEF.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_DEF.sortKey, KeyType: 'RANGE' },
    ]);
    const indexes = Object.values(TABLE_DEF.indexes);
    expect(indexes.map((i) => i.name).sort()).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6']);
    expect(p.GlobalSecondaryIndexes).toHaveLength(indexes.length);
    for (const index of indexes) {
      expect(p.GlobalSecondaryIndexes).toContainEqual({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
    }
    const keyNames = [TABLE_DEF.partitionKey, TABLE_DEF.sortKey, ...indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
    expect(p.AttributeDefinitions).toHaveLength(keyNames.length);
    for (const name of keyNames) expect(p.AttributeDefinitions).toContainEqual({ AttributeName: name, AttributeType: 'S' });
  });

  it('streams NEW_AND_OLD_IMAGES, has PITR, TTL, on-demand billing and survives stack deletion', () => {
    const table = resources[tableId()]!;
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_DEF.ttlAttribute, Enabled: true });
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
  });
});

describe('functions', () => {
  it('one function per handler module plus the authorizers (TOKEN, and REQUEST for the session routes)', () => {
    const handlers = new Set(ROUTES.map((r) => r.handler));
    expect(SESSION_ROUTES.length).toBeGreaterThan(0);
    expect(authorizerCount()).toBe(2);
    expect(appFunctions()).toHaveLength(handlers.size + extraFunctionCount());
    // Besides them only the console's BucketDeployment handler, which is CDK's own.
    template.resourceCountIs('AWS::Lambda::Function', handlers.size + extraFunctionCount() + 1);
    const all = new Set([...routeFunctionIds(), ...authorizerFunctionIds(), ...PIPELINE_MODULES.map((m) => functionOf(m))]);
    expect(all.size).toBe(handlers.size + extraFunctionCount());
  });

  it('all run nodejs24.x on arm64 with the table name, Powertools settings and no source maps', () => {
    const table = tableId();
    const fns = appFunctions();
    expect(fns.length).toBeGreaterThan(1);
    for (const [id, { Properties: p }] of fns) {
      expect(p.Runtime, id).toBe('nodejs24.x');
      expect(p.Architectures, id).toEqual(['arm64']);
      // 512 MB, but the file worker: 1024 MB for the CPU Lambda gives with it (a 20 MB PDF is
      // parsed within its 60 s), its peak RSS being under 512 MB (scripts/bench/files.ts).
      expect(p.MemorySize, id).toBe(id === functionOf(FILE_WORKER_MODULE) ? 1024 : 512);
      expect(p.Handler, id).toBe('index.handler');
      const env = p.Environment.Variables;
      expect(env.TABLE_NAME, id).toEqual({ Ref: table });
      expect(env.POWERTOOLS_SERVICE_NAME, id).toBe('talent-pipeline-prod');
      expect(env.POWERTOOLS_LOG_LEVEL, id).toBe('INFO');
      expect(env.NODE_OPTIONS ?? '', id).not.toMatch(/enable-source-maps/);
    }
  });

  it('route functions time out after 10 s unless their route sets timeoutSeconds, the authorizers sooner', () => {
    expect(DEFAULT_ROUTE_TIMEOUT_S).toBe(10);
    for (const r of ROUTES) {
      const id = functionIn(methodFor(r).Integration.Uri);
      const longest = Math.max(...ROUTES.filter((x) => x.handler === r.handler).map((x) => x.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_S));
      expect(resources[id]!.Properties.Timeout, label(r)).toBe(longest);
      // API Gateway ends the request at 29 s; the function must end it first.
      expect(resources[id]!.Properties.Timeout, label(r)).toBeLessThan(API_INTEGRATION_TIMEOUT_S);
    }
    for (const id of authorizerFunctionIds()) expect(resources[id]!.Properties.Timeout, id).toBeLessThan(DEFAULT_ROUTE_TIMEOUT_S);
  });

  it('test-webhook waits for a receiver (up to 15 s) and so gets 20 s', () => {
    const testRoutes = ROUTES.filter((r) => r.handler === 'test-webhook');
    expect(testRoutes.map((r) => r.timeoutSeconds)).toEqual([20]);
    expect(resources[functionIn(methodFor(testRoutes[0]!).Integration.Uri)]!.Properties.Timeout).toBe(20);
  });

  it('no function is configured for local use: no loopback receivers, local endpoints or test schedules', () => {
    for (const [id, { Properties: p }] of appFunctions()) {
      for (const name of LOCAL_ONLY_ENV) expect(Object.keys(p.Environment.Variables), id).not.toContain(name);
    }
    // So the deployed delivery function runs the default schedule, the one the redrive is sized for.
    expect(DELIVERY_ATTEMPTS).toBe(DEFAULT_RETRY_SCHEDULE_S.length + 1);
  });

  it('each function logs to its own log group with a retention', () => {
    const groups = new Set<string>();
    for (const [id, { Properties: p }] of appFunctions()) {
      const group = p.LoggingConfig?.LogGroup?.Ref;
      expect(group, id).toBeDefined();
      expect(resources[group]!.Type).toBe('AWS::Logs::LogGroup');
      expect(resources[group]!.Properties.RetentionInDays, id).toBe(30);
      groups.add(group);
    }
    expect(groups.size).toBe(appFunctions().length);
  });
});

describe('bundles', () => {
  const bundleDir = (fnId: string) => {
    const dir = assetDirByKey.get(resources[fnId]!.Properties.Code.S3Key);
    expect(dir, `no bundle for ${fnId}`).toBeDefined();
    return dir!;
  };

  it('are minified ESM with the createRequire banner, the AWS SDK inside (where the table is used) and no source map', () => {
    const fns = appFunctions();
    expect(fns.length).toBeGreaterThan(1);
    let withoutTable = 0;
    for (const [id] of fns) {
      const dir = bundleDir(id);
      expect(readdirSync(dir), id).toEqual(['index.mjs']);
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      expect(code.startsWith("import { createRequire } from 'module'; const require = createRequire(import.meta.url);"), id).toBe(true);
      expect(code, id).not.toMatch(/sourceMappingURL/);
      // Bundled: no import of the SDK is left for the runtime to resolve.
      expect(code, id).not.toMatch(/from\s*["']@(aws-sdk|smithy)\//);
      // A function granted table access bundles the SDK client; one without (the OpenAPI
      // document) does not even carry it.
      if (actionsOf(id).some((a) => a.startsWith('dynamodb:'))) expect(code, id).toMatch(/DynamoDBClient/);
      else {
        withoutTable++;
        expect(code, id).not.toMatch(/DynamoDBClient/);
      }
      // Minified: unminified esbuild output averages well under 100 characters a line.
      expect(code.length / code.split('\n').length, id).toBeGreaterThan(1000);
    }
    expect(withoutTable).toBe(new Set(ROUTES.filter((r) => r.access === 'none').map((r) => r.handler)).size);
  });

  it('of every function, background ones included, are at most 400 KB (the file worker its own bound) and carry no route documentation', () => {
    // Text only the OpenAPI document reads (DOCS in lib/api/route.ts). A line with a role keeps its
    // summary: the 403 to a member quotes it.
    const quoted = new Set(ROUTES.filter((r) => r.role || typeof r.console === 'object').map((r) => r.summary));
    const docs = new Set(
      ROUTES.flatMap((r) => [r.summary, ...Object.values(r.errors ?? {}), ...Object.values(r.alsoStatus ?? {})]).filter(
        (s): s is string => typeof s === 'string' && !quoted.has(s),
      ),
    );
    expect(docs.size).toBeGreaterThan(50);
    const fns = appFunctions();
    const worker = functionOf(FILE_WORKER_MODULE);
    for (const [id] of fns) {
      const code = readFileSync(path.join(bundleDir(id), 'index.mjs'), 'utf8');
      // The file worker alone carries the parsers (infra/constructs/file-worker.ts FILE_WORKER_BUDGET).
      expect(Buffer.byteLength(code), id).toBeLessThanOrEqual(id === worker ? FILE_WORKER_BUDGET : 400 * 1024);
      expect(
        [...docs].filter((s) => code.includes(s)),
        id,
      ).toEqual([]);
    }
  });

  it('of API functions and authorizers are at most 400 KB, traced with the trimmed X-Ray entry', () => {
    const modules = [TOKEN_AUTHORIZER_MODULE, SESSION_AUTHORIZER_MODULE, ...new Set(ROUTES.map((r) => r.handler))];
    let traced = 0;
    for (const module of modules) {
      const matches = appFunctions().filter(([id]) => id.startsWith(`${pascal(module)}Fn`));
      expect(matches, module).toHaveLength(1);
      const [id] = matches[0]!;
      const code = readFileSync(path.join(bundleDir(id), 'index.mjs'), 'utf8');
      // The 400 KB budget per function, on the bundle exactly as it deploys (bytes, 1 KB = 1024).
      expect(Buffer.byteLength(code), module).toBeLessThanOrEqual(400 * 1024);
      // The SDK name the X-Ray entry (ours or the SDK's) stamps on every segment.
      const carriesXRay = code.includes('X-Ray for Node.js');
      const usesTable = actionsOf(id).some((a) => a.startsWith('dynamodb:'));
      expect(carriesXRay, module).toBe(usesTable);
      if (!carriesXRay) continue;
      traced++;
      // lib/aws/xray-sdk-core.ts (its error names it), not the SDK's entry with its EC2/Beanstalk plugins.
      expect(code, module).toContain('lib/aws/xray-sdk-core.ts');
      expect(code, module).not.toMatch(/AWS::ElasticBeanstalk/);
    }
    // Every one that uses the table: both authorizers, every route but the OpenAPI document's.
    const withTable = modules.filter((m) => ROUTES.find((r) => r.handler === m)?.access !== 'none');
    expect(traced).toBe(withTable.length);
  });

  it('of the functions only a mail domain deploys are at most 400 KB and traced, bundled as the stack bundles them', () => {
    // Each function's role names its module (infra/constructs/table-function.ts): what the shared
    // synth deploys; every other entry under functions/ must be one of the mail domain's.
    const deployed = new Set(
      ofType('AWS::IAM::Role').flatMap(([, r]) => /^Talent pipeline: (.+)$/.exec(String(r.Properties.Description ?? ''))?.slice(1) ?? []),
    );
    const entries = readdirSync(path.join(PROJECT_ROOT, 'functions')).map((f) => f.replace(/\.ts$/, ''));
    const mailOnly = [INVITATIONS_MODULE, SCORECARD_REMINDERS_MODULE];
    expect(entries.filter((m) => !deployed.has(m)).sort()).toEqual([...mailOnly].sort());
    // Built with every other function in the shared synth's one esbuild run, which builds each as
    // the stack does alone (test/unit/prebuilt-bundles.test.ts).
    for (const module of mailOnly) {
      const code = readFileSync(path.join(BUNDLES_DIR, `${module}.mjs`), 'utf8');
      expect(Buffer.byteLength(code), module).toBeLessThanOrEqual(400 * 1024);
      expect(code, module).toContain('X-Ray for Node.js');
      expect(code, module).toContain('lib/aws/xray-sdk-core.ts');
    }
  });

  it('load under Node with their own environment and export a handler (no "Dynamic require" failures)', async () => {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('WEBHOOK_') && k !== 'TABLE_NAME' && !LOCAL_ONLY_ENV.includes(k)),
    );
    // The variables the template gives each function, with a stand-in for each resolved reference:
    // a module that reads a variable the stack forgot fails its cold start here.
    const jobs = appFunctions().map(([id, { Properties: p }]: [string, Json]) => ({
      id,
      url: pathToFileURL(path.join(bundleDir(id), 'index.mjs')).href,
      env: {
        ...inherited,
        ...Object.fromEntries(
          Object.entries<Json>(p.Environment.Variables).map(([k, v]) => [k, typeof v === 'string' ? v : `stack-test-${k}`]),
        ),
        AWS_REGION: 'us-east-1',
      },
    }));
    // Two worker threads (one per core), each loading its share of the bundles one after another:
    // starting a thread cost about as much CPU as loading a bundle in it, so a thread per function
    // nearly doubled the test's cost. Each bundle is a module of its own (a fresh module scope),
    // loaded with exactly its function's environment, and the globals a bundle adds or replaces
    // (Zod's registry, undici's dispatcher, `awslambda`) are put back before the next one loads:
    // a bundle that needs a global it does not make itself fails as it would alone. What they
    // still share is Node's built-in modules.
    const THREADS = 2;
    const results: (readonly [string, string])[] = [];
    await Promise.all(
      Array.from({ length: THREADS }, (_, t) => {
        const share = jobs.filter((_, i) => i % THREADS === t);
        return new Promise<void>((resolve) => {
          let done = 0;
          // No execArgv: not the test worker's flags (vitest's --require, --conditions development),
          // which Lambda never passes and which the thread would load again.
          const worker = new Worker(LOAD_EACH, { eval: true, execArgv: [], env: {}, workerData: share, stdout: true, stderr: true });
          worker.on('message', ([id, out]: [string, string]) => {
            results.push([id, out]);
            if (++done === share.length) {
              resolve();
              void worker.terminate();
            }
          });
          // Name the function and its error: which cold start failed, and why (a thread that ends
          // takes the rest of its share with it, each reported as not loaded).
          const fail = (why: string) => {
            const [first, ...rest] = share.slice(done);
            if (first) results.push([first.id, why]);
            for (const { id } of rest) results.push([id, 'not loaded: an earlier bundle ended its thread']);
            done = share.length;
            resolve();
          };
          worker.once('error', (err) => fail(`fails its cold start: ${err.name}: ${err.message}`));
          worker.once('exit', (code) => fail(`fails its cold start: exited with ${code} before loading`));
        });
      }),
    );
    expect(results.length).toBe(appFunctions().length);
    expect(results.filter(([, out]) => out !== 'function')).toEqual([]);
  }, 60_000);
});
