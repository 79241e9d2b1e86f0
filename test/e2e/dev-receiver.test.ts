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
import { childEnv, e2eSandbox, ROOT, sleep } from '../helpers/processes';

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
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['dev/dev-receiver.ts'], {
      cwd: ROOT,
      env: childEnv(dir, { RECEIVER_PORT: '0', WEBHOOK_SECRET: `${newSecret},${oldSecret}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      const deadline = Date.now() + 30_000;
      while (!/NODE_EXTRA_CA_CERTS=\S+ npm start/.test(out) && Date.now() < deadline) await sleep(100);
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
      await sleep(200);
      expect(out.match(/signature OK -> 200/g)).toHaveLength(3);
      expect(out.match(/signature INVALID -> 401/g)).toHaveLength(1);
      expect(out).not.toContain(newSecret.slice(6));
      expect(out).not.toContain(oldSecret.slice(6));
    } finally {
      child.kill('SIGTERM');
    }
  });
});
