/**
 * `npm run dev:receiver`: a local HTTPS webhook receiver that verifies what `npm start` sends.
 *
 * It makes (once, under DATA_DIR/dev-receiver/) a self-signed certificate whose subjectAltName
 * names 127.0.0.1, ::1 and localhost, listens on https://127.0.0.1:RECEIVER_PORT (default 8443),
 * and prints the NODE_EXTRA_CA_CERTS line that makes `npm start` trust it: the sender verifies
 * certificates as it does deployed, so there is no switch to turn verification off.
 *
 * WEBHOOK_SECRET (one or more comma-separated `whsec_…`, e.g. old and new during a rotation)
 * turns on verification of both signature schemes; RECEIVER_STATUS answers with another status
 * (e.g. 503 to play a receiver that is down, 410 to ask for the endpoint to be disabled).
 * Secrets are never printed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { verifyWebhook } from '../lib/webhooks/verify';

/**
 * A self-signed server certificate for local receivers (dev receiver, tests) whose subjectAltName
 * names 127.0.0.1, ::1 and localhost, the names the local sender connects to.
 */
export async function localhostCertificate(validDays: number): Promise<{ cert: string; key: string }> {
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + validDays * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** The receiver's certificate and key, made on first use and kept. */
export async function devCertificate(dir: string): Promise<{ certPath: string; cert: string; key: string }> {
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    const pems = await localhostCertificate(365);
    mkdirSync(dir, { recursive: true });
    writeFileSync(keyPath, pems.key, { mode: 0o600 });
    writeFileSync(certPath, pems.cert);
  }
  return { certPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
}

export interface DevReceiver {
  server: Server;
  url: string;
  certPath: string;
  close(): Promise<void>;
}

/** Start the receiver; `log` gets one line per request (event, webhook-id, verified or not). */
export async function startDevReceiver(opts: {
  dir: string;
  port: number;
  secrets: string[];
  status?: number;
  log: (line: string) => void;
}): Promise<DevReceiver> {
  const { certPath, cert, key } = await devCertificate(opts.dir);
  const server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = opts.secrets.length ? opts.secrets.some((s) => verifyWebhook(body, req.headers, s)) : undefined;
      const status = verified === false ? 401 : (opts.status ?? 200);
      opts.log(
        `${new Date().toISOString()} ${req.method} ${req.url} ${req.headers['x-service-event'] ?? '-'} ${req.headers['webhook-id'] ?? '-'} ` +
          `${verified === undefined ? 'unverified (no WEBHOOK_SECRET)' : verified ? 'signature OK' : 'signature INVALID'} -> ${status}`,
      );
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 401 ? 'bad signature' : 'ok');
    });
  });
  server.listen(opts.port, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `https://127.0.0.1:${port}/hook`,
    certPath,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { dataDir } = await import('./runtime');
  const secrets = (process.env.WEBHOOK_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const port = Number(process.env.RECEIVER_PORT ?? 8443);
  const status = process.env.RECEIVER_STATUS ? Number(process.env.RECEIVER_STATUS) : undefined;
  const r = await startDevReceiver({ dir: join(dataDir(), 'dev-receiver'), port, secrets, status, log: (l) => console.log(l) });
  console.log(`
Webhook receiver listening on ${r.url}
${secrets.length ? `Verifying with ${secrets.length} secret(s).` : 'Not verifying: restart with WEBHOOK_SECRET=whsec_... (comma-separate two during a rotation).'}

Start the service so that it trusts this receiver's certificate (a new terminal):
  NODE_EXTRA_CA_CERTS=${r.certPath} npm start
then create an endpoint with url ${r.url} (docs/webhooks.md, "Managing endpoints").
Ctrl-C stops the receiver.
`);
  const stop = () => void r.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
