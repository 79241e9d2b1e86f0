/**
 * The Tracer as the stack bundles it (infra/constructs/table-function.ts LAMBDA_ALIASES):
 * - an API function's bundle carries lib/aws/xray-sdk-core.ts instead of the X-Ray SDK's entry,
 *   and none of what that leaves out (SDK v2 and HTTP patchers, semver, cls-hooked's emitter
 *   binding);
 * - run as in Lambda, that bundle still sends a subsegment per DynamoDB call, in the request's
 *   trace, to the X-Ray daemon (a UDP socket here), and records no response;
 * The stack test checks that every function bundle, traced, is at most 400 KB.
 */
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_ALIASES } from '../../infra/constructs/table-function';
import { esbuildOptions } from '../../scripts/bench/bundles';
import { createCandidate } from '../../lib/api/candidates';
import { IDEM_MISMATCH } from '../../lib/api/route';
import { updatePipelineSettings } from '../../lib/api/settings';

const BUDGET = 400 * 1024;
const out = mkdtempSync(join(tmpdir(), 'tp-tracing-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function bundle(module: string, alias: Record<string, string>, name = module) {
  const outfile = join(out, `${name}.mjs`);
  const result = await build({ ...esbuildOptions(module, alias), outfile, metafile: true });
  const output = Object.values(result.metafile.outputs)[0]!;
  return { outfile, bytes: output.bytes, inputs: Object.keys((result.metafile as Metafile).inputs) };
}

describe('a traced API function bundle (get-candidate)', () => {
  let traced: Awaited<ReturnType<typeof bundle>>;
  beforeAll(async () => {
    traced = await bundle('get-candidate', LAMBDA_ALIASES);
  }, 60_000);

  it('carries the trimmed X-Ray entry, not what it leaves out', () => {
    expect(traced.inputs).toContain('lib/aws/xray-sdk-core.ts');
    expect(traced.inputs).toContain('lib/aws/no-emitter-binding.cjs');
    expect(traced.inputs).toContain('node_modules/@aws-lambda-powertools/tracer/lib/esm/Tracer.js');
    expect(traced.inputs).toContain('node_modules/aws-xray-sdk-core/dist/lib/patchers/aws3_p.js');
    const leftOut = traced.inputs.filter((i) =>
      /aws-xray-sdk-core\/dist\/lib\/(aws-xray|index|patchers\/(aws_p|http_p|promise_p)|segments\/plugins\/|database\/)|node_modules\/(semver|emitter-listener|shimmer)\//.test(
        i,
      ),
    );
    expect(leftOut).toEqual([]);
    expect(traced.bytes).toBeLessThanOrEqual(BUDGET);
  });

  describe('run as in Lambda', () => {
    const datagrams: string[] = [];
    const daemon = createSocket('udp4', (msg) => datagrams.push(msg.toString('utf8')));
    const requests: string[] = [];
    // DynamoDB's answer to everything: no item, no items.
    const dynamodb = createServer((req, res) => {
      requests.push(String(req.headers['x-amz-target']));
      req.resume().on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' }).end('{}'));
    });
    beforeAll(async () => {
      await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => dynamodb.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => {
      daemon.close();
      dynamodb.close();
    });

    it('sends one subsegment per DynamoDB call, in the invocation trace, with no response recorded', async () => {
      const root = '1-6740a1b2-0123456789abcdef01234567';
      const event = {
        httpMethod: 'GET',
        path: '/api/v1/candidates/3f1c2a9e-8f4b-4c1d-9a7e-2b6d5e4f3a10',
        headers: {},
        pathParameters: { id: '3f1c2a9e-8f4b-4c1d-9a7e-2b6d5e4f3a10' },
        requestContext: {
          requestId: 'req-1',
          authorizer: { tenantId: 'tenant-1', tenantSlug: 'acme', tokenId: 'tok-1', scopes: 'candidates:read' },
        },
      };
      const script = `
        const { handler } = await import(${JSON.stringify(traced.outfile)});
        const res = await handler(${JSON.stringify(event)}, { functionName: 'get-candidate', awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 5000 });
        await new Promise((r) => setTimeout(r, 200)); // the emitter's UDP sends
        process.stdout.write(JSON.stringify({ status: res.statusCode }));`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        env: {
          PATH: process.env.PATH,
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
          LAMBDA_TASK_ROOT: '/var/task',
          _X_AMZN_TRACE_ID: `Root=${root};Parent=53995c3f42cd8ad8;Sampled=1`,
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
          DYNAMODB_ENDPOINT: `http://127.0.0.1:${(dynamodb.address() as AddressInfo).port}`,
          TABLE_NAME: 'tracing-test',
          AWS_REGION: 'us-east-1',
          POWERTOOLS_LOG_LEVEL: 'ERROR',
          POWERTOOLS_METRICS_DISABLED: 'true',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      // No item: the candidate is not found, after a GetItem and a Query.
      expect(JSON.parse(stdout)).toEqual({ status: 404 });
      expect(requests.sort()).toEqual(['DynamoDB_20120810.GetItem', 'DynamoDB_20120810.Query']);

      // Each datagram: the daemon's header line, then one (sub)segment document.
      const docs = datagrams.map((d) => JSON.parse(d.split('\n')[1]!) as Record<string, any>);
      const calls = docs.filter((d) => d.namespace === 'aws');
      expect(calls.map((d) => `${d.name} ${d.aws.operation}`).sort()).toEqual(['DynamoDB GetItem', 'DynamoDB Query']);
      for (const call of calls) {
        expect(call.type).toBe('subsegment');
        expect(call.trace_id).toBe(root);
        expect(call.parent_id).toBe('53995c3f42cd8ad8');
        expect(call.aws.table_name).toBe('tracing-test');
        expect(call.http.response.status).toBe(200);
        expect(call.metadata).toBeUndefined();
      }
    }, 60_000);
  });
});

describe('the route lines in a bundle', () => {
  it('carry no documentation: the summary and error sentences are in the OpenAPI document only', async () => {
    const { outfile } = await bundle('create-candidate', LAMBDA_ALIASES);
    const code = readFileSync(outfile, 'utf8');
    // Here, outside a bundle, DOCS is true: the sentences are what the OpenAPI document says.
    expect(createCandidate.summary).toBe('Create a candidate');
    expect(createCandidate.errors?.[422]).toBe(IDEM_MISMATCH);
    expect(code.includes('"/api/v1/candidates"')).toBe(true);
    expect(code.includes('Create a candidate')).toBe(false);
    expect(code.includes(IDEM_MISMATCH)).toBe(false);
  }, 60_000);

  it('keep the summary of a line with a role, which the 403 to a member quotes', async () => {
    const { outfile } = await bundle('update-pipeline-settings', LAMBDA_ALIASES);
    expect(readFileSync(outfile, 'utf8').includes(updatePipelineSettings.summary)).toBe(true);
  }, 60_000);
});

describe('an idempotent function bundle (create-candidate), with the JMESPath stand-in', () => {
  // DynamoDB's answer to everything: success, no item. Each request's body is kept.
  const bodies: { target: string; body: Record<string, any> }[] = [];
  const dynamodb = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      bodies.push({ target: String(req.headers['x-amz-target']), body: JSON.parse(body || '{}') });
      res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' }).end('{}');
    });
  });
  beforeAll(() => new Promise<void>((resolve) => dynamodb.listen(0, '127.0.0.1', resolve)));
  afterAll(() => dynamodb.close());

  /** Runs a bundle's handler on one keyed create; answers its status and the idempotency record it put. */
  async function create(outfile: string) {
    bodies.length = 0;
    const event = {
      httpMethod: 'POST',
      resource: '/api/v1/candidates',
      path: '/api/v1/candidates',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'retry-me-1' },
      body: JSON.stringify({ name: 'Ada Lovelace', stage: 'applied' }),
      requestContext: {
        requestId: 'req-1',
        authorizer: { tenantId: 'tenant-1', tenantSlug: 'acme', tokenId: 'tok-1', scopes: 'candidates:write' },
      },
    };
    const script = `
      const { handler } = await import(${JSON.stringify(outfile)});
      const res = await handler(${JSON.stringify(event)}, { functionName: 'create-candidate', awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 5000 });
      process.stdout.write(JSON.stringify({ status: res.statusCode }));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        PATH: process.env.PATH,
        DYNAMODB_ENDPOINT: `http://127.0.0.1:${(dynamodb.address() as AddressInfo).port}`,
        TABLE_NAME: 'idempotency-test',
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        POWERTOOLS_METRICS_DISABLED: 'true',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise((resolve) => child.on('close', resolve));
    const record = bodies.find((b) => b.target === 'DynamoDB_20120810.PutItem' && /attribute_not_exists/.test(b.body.ConditionExpression));
    return { status: JSON.parse(stdout || '{}').status, stderr, record: record?.body.Item };
  }

  it('claims the same key, with the same payload hash, as with Powertools JMESPath', async () => {
    expect(LAMBDA_ALIASES['@aws-lambda-powertools/jmespath']).toMatch(/jmespath-fields\.ts$/);
    const shipped = await bundle('create-candidate', LAMBDA_ALIASES);
    const { '@aws-lambda-powertools/jmespath': _a, '@aws-lambda-powertools/jmespath/functions': _b, ...withJmespath } = LAMBDA_ALIASES;
    const full = await bundle('create-candidate', withJmespath, 'create-candidate.jmespath');
    expect(full.inputs.some((i) => i.includes('@aws-lambda-powertools/jmespath/lib/esm/TreeInterpreter.js'))).toBe(true);
    expect(shipped.inputs.some((i) => i.includes('@aws-lambda-powertools/jmespath/'))).toBe(false);

    const stand = await create(shipped.outfile);
    const real = await create(full.outfile);
    expect(stand.stderr).toBe('');
    expect(stand.status).toBe(201);
    expect(real.status).toBe(201);
    expect(stand.record).toBeDefined();
    // The key (tenant and Idempotency-Key, hashed) and the payload hash: what a retry is matched by.
    const matchedBy = (item: Record<string, unknown>) => pick(item, ['PK', 'SK', 'idem_status', 'idem_payload_hash']);
    expect(Object.keys(matchedBy(stand.record!))).toHaveLength(4);
    expect(matchedBy(stand.record!)).toEqual(matchedBy(real.record!));
  }, 120_000);
});

const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
