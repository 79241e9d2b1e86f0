/**
 * lib/config.ts: the one module of the Lambda code that reads the environment. Each setting is
 * read at each use (parsed again only when its variable changed); a module that needs a required
 * setting checks it as it loads, so a missing one stops only the functions that need it, with the
 * variable's name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

const VARS = [
  'TABLE_NAME',
  'WEBHOOK_QUEUE_URL',
  'WEBHOOK_DLQ_URL',
  'WEBHOOK_TIMEOUT_MS',
  'USAGE_PLAN_NAME',
  'AWS_REGION',
  'SQS_ENDPOINT',
  'FILES_BUCKET',
  'S3_ENDPOINT',
  'MAIL_FROM',
  'SES_ENDPOINT',
  'WEBHOOK_RETRY_SCHEDULE',
];
const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));

/** A fresh module graph (a cold start) with exactly `env` set among VARS. */
async function coldStart(env: Record<string, string>) {
  vi.resetModules();
  for (const k of VARS) delete process.env[k];
  Object.assign(process.env, env);
}

afterEach(() => {
  for (const k of VARS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  vi.resetModules();
});

describe('config', () => {
  it('loads with nothing set: a setting is read when asked for, and again at each use', async () => {
    await coldStart({});
    const { config } = await import('../../lib/config');
    expect(config.region).toBe('us-east-1');
    process.env.TABLE_NAME = 'first';
    expect(config.tableName).toBe('first');
    process.env.TABLE_NAME = 'second';
    expect(config.tableName).toBe('second');
    delete process.env.TABLE_NAME;
    expect(() => config.tableName).toThrow('Missing required environment variable TABLE_NAME');
  });

  it('parses a value once, until its variable changes', async () => {
    await coldStart({ WEBHOOK_RETRY_SCHEDULE: '1,2' });
    const { webhookConfig } = await import('../../lib/webhooks/config');
    const first = webhookConfig.retryScheduleS;
    expect(first).toEqual([1, 2]);
    expect(webhookConfig.retryScheduleS).toBe(first);
    process.env.WEBHOOK_RETRY_SCHEDULE = '3';
    expect(webhookConfig.retryScheduleS).toEqual([3]);
  });

  it('a malformed delivery setting stops the cold start of the functions that deliver', async () => {
    await coldStart({ WEBHOOK_RETRY_SCHEDULE: 'soon' });
    await expect(import('../../lib/webhooks/config')).rejects.toThrow('WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds');
    await coldStart({ WEBHOOK_TIMEOUT_MS: '0' });
    await expect(import('../../lib/webhooks/config')).rejects.toThrow('WEBHOOK_TIMEOUT_MS must be a positive number up to 15000, got "0"');
  });

  it('names the missing required variable', async () => {
    await coldStart({ TABLE_NAME: 't' });
    const { config } = await import('../../lib/config');
    expect(() => config.webhookQueueUrl).toThrow('Missing required environment variable WEBHOOK_QUEUE_URL');
  });

  it('a function without the queue URLs loads the store; the queue module stops its cold start', async () => {
    await coldStart({ TABLE_NAME: 't' });
    const store = await import('../../lib/store/client');
    expect(store.tableName()).toBe('t');
    await expect(import('../../lib/webhooks/queue')).rejects.toThrow('Missing required environment variable WEBHOOK_QUEUE_URL');
  });

  it('a function without TABLE_NAME stops at cold start when it loads the store', async () => {
    await coldStart({});
    await expect(import('../../lib/store/client')).rejects.toThrow('Missing required environment variable TABLE_NAME');
  });

  it('the queue functions get their URLs and the local endpoint', async () => {
    await coldStart({
      TABLE_NAME: 't',
      WEBHOOK_QUEUE_URL: 'http://q/main',
      WEBHOOK_DLQ_URL: 'http://q/dlq',
      SQS_ENDPOINT: 'http://q',
      AWS_REGION: 'eu-west-1',
    });
    const { queueConfig, sqs } = await import('../../lib/webhooks/queue');
    expect(queueConfig).toEqual({ queueUrl: 'http://q/main', dlqUrl: 'http://q/dlq' });
    expect(await sqs().config.region()).toBe('eu-west-1');
    expect(sqs()).toBe(sqs());
  });

  it('a client is built again only when its endpoint changes (a later test file of the same worker)', async () => {
    await coldStart({ TABLE_NAME: 't', WEBHOOK_QUEUE_URL: 'http://q/main', WEBHOOK_DLQ_URL: 'http://q/dlq', SQS_ENDPOINT: 'http://q1' });
    const { sqs } = await import('../../lib/webhooks/queue');
    const first = sqs();
    process.env.SQS_ENDPOINT = 'http://q2';
    const second = sqs();
    expect(second).not.toBe(first);
    expect((await second.config.endpoint!()).hostname).toBe('q2');
    expect(sqs()).toBe(second);
  });

  it('a function that touches files stops at cold start without FILES_BUCKET; with it, the client is regional, or path-style locally', async () => {
    await coldStart({});
    await expect(import('../../lib/files/storage')).rejects.toThrow('Missing required environment variable FILES_BUCKET');
    await coldStart({ FILES_BUCKET: 'b', AWS_REGION: 'eu-west-1' });
    const deployed = await import('../../lib/files/storage');
    expect(deployed.filesBucket()).toBe('b');
    expect(deployed.bucketUrl()).toBe('https://b.s3.eu-west-1.amazonaws.com');
    await coldStart({ FILES_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9' });
    const local = await import('../../lib/files/storage');
    expect(local.bucketUrl()).toBe('http://127.0.0.1:9/b');
    const post = await (await import('../../lib/files/s3-lite')).presignPost('b', 'k', {}, [], 60);
    expect(post.fields['X-Amz-Credential']).toMatch(/^S3RVER\//);
  });

  it('a function that sends email stops at cold start without MAIL_FROM', async () => {
    await coldStart({});
    await expect(import('../../lib/email/send')).rejects.toThrow('Missing required environment variable MAIL_FROM');
    await coldStart({ MAIL_FROM: 'no-reply@talent.example' });
    expect((await import('../../lib/email/send')).mailFrom()).toBe('no-reply@talent.example');
  });

  it('refuses a malformed number, naming the variable and the value', async () => {
    await coldStart({ WEBHOOK_TIMEOUT_MS: '20000' });
    const { config } = await import('../../lib/config');
    expect(() => config.webhookTimeoutMs).toThrow('WEBHOOK_TIMEOUT_MS must be a positive number up to 15000, got "20000"');
  });

  it('is the only reader of process.env in lib/ and functions/ (with its helpers in lib/env.ts), beside the build-time DOCS and permission-lines constants', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir)).flatMap((name) => {
        const path = join(dir, name);
        return statSync(join(ROOT, path)).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
      });
    const readers = [...files('lib'), ...files('functions')].filter((f) => readFileSync(join(ROOT, f), 'utf8').includes('process.env'));
    // lib/docs.ts reads no setting: its DOCS is a build-time constant, `process.env.TP_API_DOCS`
    // written out so that esbuild's define replaces it in Lambda bundles and folds it there.
    // lib/route-lines.ts likewise: TP_ROUTE_ROLES is a bundle's own permission lines, written in at build time.
    expect(readers).toEqual(['lib/docs.ts', 'lib/env.ts', 'lib/route-lines.ts']);
    expect(readFileSync(join(ROOT, 'lib/docs.ts'), 'utf8').match(/process\.env\.\w+/g)).toEqual(['process.env.TP_API_DOCS']);
    expect(new Set(readFileSync(join(ROOT, 'lib/route-lines.ts'), 'utf8').match(/process\.env\.\w+/g))).toEqual(
      new Set(['process.env.TP_ROUTE_ROLES']),
    );
  });
});
