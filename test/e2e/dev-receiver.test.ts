/**
 * `npm run dev:receiver` from a fresh data directory: it makes a certificate whose SAN names
 * 127.0.0.1, prints the NODE_EXTRA_CA_CERTS line, and verifies signatures (either secret of a
 * rotation), answering 401 to a wrong one.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deliveryHeaders, generateSecret } from '../../lib/webhooks/sign';
import { childEnv, e2eSandbox, ROOT } from '../helpers/processes';

const sandbox = e2eSandbox();
afterAll(() => sandbox.cleanup(), 30_000);

function post(url: string, ca: string, body: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const req = https.request(url, { method: 'POST', ca, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('npm run dev:receiver', { timeout: 60_000 }, () => {
  it('serves a certificate for 127.0.0.1, prints how to trust it, and verifies signatures', async () => {
    const dir = sandbox.freshDir('receiver');
    const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
    // Node with tsx's loader, as `npm run dev:receiver` runs it but without the tsx CLI's relay process.
    const child = spawn(process.execPath, ['--import', 'tsx', 'dev/dev-receiver.ts'], {
      cwd: ROOT,
      env: childEnv(dir, { RECEIVER_PORT: '0', WEBHOOK_SECRET: `${newSecret},${oldSecret}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let exited = false;
    // Resolves once the output shows what is asked, on the output itself (no polling, no deadline
    // of its own: the test's timeout bounds it); fails at once if the receiver exits first.
    const waiters: (() => void)[] = [];
    const settle = () => {
      for (const w of waiters.splice(0)) w();
    };
    const outputShows = (done: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (done()) resolve();
          else if (exited) reject(new Error(`the receiver exited:\n${out}`));
          else waiters.push(check);
        };
        check();
      });
    child.stdout.on('data', (d) => {
      out += d;
      settle();
    });
    child.stderr.on('data', (d) => {
      out += d;
      settle();
    });
    child.once('exit', () => {
      exited = true;
      settle();
    });
    try {
      await outputShows(() => /NODE_EXTRA_CA_CERTS=\S+ npm start/.test(out));
      const certPath = /NODE_EXTRA_CA_CERTS=(\S+) npm start/.exec(out)![1]!;
      const url = /listening on (https:\/\/127\.0\.0\.1:\d+\/hook)/.exec(out)![1]!;
      expect(certPath).toBe(join(dir, 'dev-receiver', 'cert.pem'));
      expect(out).toMatch(/Verifying with 2 secret\(s\)/);
      const ca = readFileSync(certPath, 'utf8');
      const body = JSON.stringify({ event: 'webhook.test', data: {}, timestamp: new Date().toISOString(), tenantSlug: 'demo' });
      const event = { id: `evt_${'a'.repeat(32)}`, type: 'webhook.test', body };
      // TLS with only this certificate as CA: the SAN must name 127.0.0.1 or this fails.
      expect(await post(url, ca, body, deliveryHeaders(newSecret, event))).toBe(200);
      // During a rotation the old secret's signatures come second (X-Service-Signature-Previous):
      // they verify on their own too.
      expect(await post(url, ca, body, deliveryHeaders(generateSecret(), event, Date.now(), oldSecret))).toBe(200);
      expect(await post(url, ca, body, deliveryHeaders(newSecret, event, Date.now(), oldSecret))).toBe(200);
      expect(await post(url, ca, body, deliveryHeaders(generateSecret(), event))).toBe(401);
      // The receiver logs each request as it answers it: the four lines may trail the answers.
      await outputShows(() => (out.match(/signature (OK|INVALID) -> \d+/g) ?? []).length >= 4);
      expect(out.match(/signature OK -> 200/g)).toHaveLength(3);
      expect(out.match(/signature INVALID -> 401/g)).toHaveLength(1);
      expect(out).not.toContain(newSecret.slice(6));
      expect(out).not.toContain(oldSecret.slice(6));
    } finally {
      child.kill('SIGTERM');
    }
  });
});
