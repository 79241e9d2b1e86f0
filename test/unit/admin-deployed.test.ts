/**
 * `npm run admin -- ... --table <name>` against a deployed table (docs/deploying.md, "The first deploy, from a blank account"): the region
 * must be stated, and it is the one the requests are signed for. No AWS: the SDK's
 * AWS_ENDPOINT_URL_DYNAMODB points it at a local stand-in that records the request.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Seen {
  authorization: string;
  target: string;
  body: string;
}
const seen: Seen[] = [];
let server: http.Server;
let endpoint: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ authorization: String(req.headers.authorization), target: String(req.headers['x-amz-target']), body });
      res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(
        JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', message: 'Requested resource not found' }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function admin(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const base = { ...process.env };
  for (const k of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'TABLE_NAME', 'DYNAMODB_ENDPOINT', 'AWS_PROFILE']) delete base[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    env: { ...base, AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'not-a-secret', AWS_ENDPOINT_URL_DYNAMODB: endpoint, ...env },
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.on('data', (c) => (stdout += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr, stdout })));
}

describe('admin CLI against a deployed table', () => {
  it('refuses --table without a region, before any request', async () => {
    const out = await admin(['tenant', 'create', 'acme', '--table', 'TalentPipeline-dev-Table']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("--table needs the table's region");
    expect(seen).toEqual([]);
  });

  it('refuses --region without --table', async () => {
    const out = await admin(['tenant', 'create', 'acme', '--region', 'eu-west-3']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--region applies only with --table');
  });

  it('signs its requests for the --region given, on the named table, and reports the failure', async () => {
    const out = await admin(['tenant', 'create', 'acme', '--table', 'TalentPipeline-dev-Table', '--region', 'eu-west-3']);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^admin: /);
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.authorization).toContain('/eu-west-3/dynamodb/aws4_request');
      expect(JSON.parse(s.body).TableName ?? JSON.stringify(JSON.parse(s.body))).toContain('TalentPipeline-dev-Table');
    }
  });

  it('AWS_REGION stands in for --region', async () => {
    seen.length = 0;
    const out = await admin(['tenant', 'create', 'acme', '--table', 'T2'], { AWS_REGION: 'ap-southeast-2' });
    expect(out.code).toBe(1);
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) expect(s.authorization).toContain('/ap-southeast-2/dynamodb/aws4_request');
  });
});
