/**
 * The Tracer outside Lambda (tests, `npm start`): no X-Ray daemon, so it must be off, leave the
 * clients it wraps untouched, and print nothing. In Lambda (AWS_EXECUTION_ENV set) it must add its
 * subsegment middleware to the client, and a call made outside any segment must neither fail nor
 * print (Powertools sets AWS_XRAY_CONTEXT_MISSING to IGNORE_ERROR).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('tracer', () => {
  it('is off outside Lambda: the client is returned untouched and nothing is printed', async () => {
    const out: string[] = [];
    const spies = [process.stdout, process.stderr].map((s) =>
      vi.spyOn(s, 'write').mockImplementation((chunk: unknown) => {
        out.push(String(chunk));
        return true;
      }),
    );
    const logs = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' '))),
    );
    try {
      const { tracer } = await import('../../lib/tracer');
      const client = new DynamoDBClient({ region: 'us-east-1' });
      const before = client.middlewareStack.identify().length;
      expect(tracer.isTracingEnabled()).toBe(false);
      expect(tracer.captureAWSv3Client(client)).toBe(client);
      expect(client.middlewareStack.identify().length).toBe(before);
    } finally {
      for (const s of [...spies, ...logs]) s.mockRestore();
    }
    expect(out).toEqual([]);
  });

  it('in Lambda, wraps the client, and a call outside any segment neither fails nor prints', () => {
    const script = `
      const { DynamoDBClient, ListTablesCommand } = await import('@aws-sdk/client-dynamodb');
      const { tracer } = await import('./lib/tracer.ts');
      const client = new DynamoDBClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', maxAttempts: 1,
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
      const before = client.middlewareStack.identify().length;
      tracer.captureAWSv3Client(client);
      const after = client.middlewareStack.identify().length;
      const err = await client.send(new ListTablesCommand({})).then(() => 'none', (e) => e.name);
      process.stdout.write(JSON.stringify({ enabled: tracer.isTracingEnabled(), added: after - before, err }));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    const result = JSON.parse(r.stdout);
    expect(result.enabled).toBe(true);
    expect(result.added).toBeGreaterThan(0);
    // The connection is refused (nothing listens on port 9): the SDK's error, not the tracer's.
    expect(result.err).not.toBe('none');
    expect(r.stderr).toBe('');
  });
});
