/**
 * The webhook sender against REAL local TLS servers (node:https, self-signed cert from
 * test/helpers/global-setup.ts, trusted through NODE_EXTRA_CA_CERTS: verification stays on).
 */
import { createHmac } from 'node:crypto';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../../dev/dynamodb';
import { MAX_RESPONSE_BODY_BYTES, parseRetryAfter, sendWebhook } from '../../../lib/webhooks/send';
import { tlsServers, type TestServer } from '../../helpers/tls-servers';

const { start: startServer, closeAll } = tlsServers(inject('tls'));
afterAll(closeAll);

const body = JSON.stringify({
  event: 'candidate.stage_changed',
  data: { candidateId: 'c1', name: 'Zoë Ådahl ✓ 🚀', oldStage: 'applied', newStage: 'screened', reqId: 'r1' },
  timestamp: '2025-01-01T00:00:00.000Z',
  tenantSlug: 'acme',
});
const secret = 'whsec_super_secret_value';
const signature = createHmac('sha256', secret).update(body).digest('hex');
const headers = {
  'Content-Type': 'application/json',
  'X-Service-Event': 'candidate.stage_changed',
  'X-Service-Signature': signature,
};
const strict = { timeoutMs: 5_000, allowLoopback: false };
const loose = { timeoutMs: 5_000, allowLoopback: true };

it('the worker got NODE_EXTRA_CA_CERTS from global setup', () => {
  expect(process.env.NODE_EXTRA_CA_CERTS).toMatch(/cert\.pem$/);
});

describe('SSRF guard against a real loopback sink', () => {
  let sink: TestServer;
  beforeAll(async () => {
    sink = await startServer((_req, res) => res.end('sink'));
  });

  const forms = (p: number) => [
    `https://127.0.0.1:${p}/hook`,
    `https://localhost:${p}/hook`, // DNS name resolving to loopback
    `https://2130706433:${p}/hook`,
    `https://0x7f.0.0.1:${p}/hook`,
    `https://0x7f.1:${p}/hook`,
    `https://0177.0.0.1:${p}/hook`,
    `https://127.1:${p}/hook`,
    `https://[::1]:${p}/hook`,
    `https://[::ffff:127.0.0.1]:${p}/hook`,
    `https://[::ffff:7f00:1]:${p}/hook`,
  ];

  it('refuses every loopback form with status 0 and the sink sees ZERO connections', async () => {
    const urls = [...forms(sink.port), `http://127.0.0.1:${sink.port}/hook`];
    for (const url of urls) {
      const r = await sendWebhook(url, body, headers, strict);
      expect(r.status, url).toBe(0);
      expect(r.body, url).toBe('');
      expect(r.error, url).toMatch(url.startsWith('http:') ? /unsupported scheme http:/ : /^blocked target: .*loopback/);
      expect(r.error, url).not.toContain(signature);
    }
    await sleep(100); // let any stray connect attempt land before counting
    expect(sink.connections).toBe(0);
    expect(sink.requests).toHaveLength(0);
  });

  it('refuses 0.0.0.0 / :: (which reach the local host on Linux) even with allowLoopback', async () => {
    for (const url of [`https://0.0.0.0:${sink.port}/`, `https://0:${sink.port}/`, `https://[::]:${sink.port}/`]) {
      const r = await sendWebhook(url, body, headers, loose);
      expect(r.status, url).toBe(0);
      expect(r.error, url).toMatch(/^blocked target: .*unspecified/);
    }
    await sleep(100);
    expect(sink.connections).toBe(0);
  });

  it('control: with allowLoopback the same forms do reach the sink (so ZERO above is meaningful)', async () => {
    for (const url of forms(sink.port)) {
      if (url.includes('[::1]') && !sink.ipv6) continue;
      const before = sink.connections + sink.requests.length;
      const r = await sendWebhook(url, body, headers, loose);
      if (url.includes('::ffff:')) {
        // The mapped address does connect (to the IPv4 listener), but Node's TLS identity check
        // does not match host ::ffff:7f00:1 against the cert's IP SAN 127.0.0.1.
        expect(r.status, url).toBe(0);
        expect(r.error, url).toBe('tls error (ERR_TLS_CERT_ALTNAME_INVALID)');
      } else {
        expect(r.status, url).toBe(200);
        expect(r.body, url).toBe('sink');
      }
      expect(sink.connections + sink.requests.length, url).toBeGreaterThan(before);
    }
  });

  it('[::1] is refused whether or not this machine has IPv6 loopback', async () => {
    const r = await sendWebhook(`https://[::1]:${sink.port}/`, body, headers, strict);
    expect(r).toMatchObject({ status: 0, error: expect.stringMatching(/loopback/) });
  });
});

describe('delivery with allowLoopback', () => {
  it('POSTs the exact body bytes and headers, with Content-Length, and returns 200', async () => {
    const srv = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    // A caller-supplied Content-Length is ignored: the sender sets the real one.
    const r = await sendWebhook(`https://localhost:${srv.port}/hooks/in?x=1`, body, { ...headers, 'content-length': '3' }, loose);
    expect(r).toMatchObject({ status: 200, body: 'ok' });
    expect(r.error).toBeUndefined();
    expect(r.retryAfterMs).toBeUndefined();
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
    expect(srv.requests).toHaveLength(1);
    const got = srv.requests[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hooks/in?x=1');
    expect(got.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got.headers['x-service-event']).toBe('candidate.stage_changed');
    expect(got.headers['x-service-signature']).toBe(signature);
    expect(createHmac('sha256', secret).update(got.body).digest('hex')).toBe(got.headers['x-service-signature']);
    expect(got.headers['transfer-encoding']).toBeUndefined();
  });

  it('does not follow a 302: returns it, and the sink sees exactly one request', async () => {
    const srv = await startServer((req, res) => {
      if (req.url === '/hook') res.writeHead(302, { location: '/elsewhere' }).end();
      else res.end('followed');
    });
    const r = await sendWebhook(`https://127.0.0.1:${srv.port}/hook`, body, headers, loose);
    expect(r.status).toBe(302);
    expect(r.error).toBeUndefined();
    await sleep(100);
    expect(srv.requests.map((q) => q.url)).toEqual(['/hook']);
  });

  it('returns a 500 with its body', async () => {
    const srv = await startServer((_req, res) => res.writeHead(500).end('{"error":"boom"}'));
    const r = await sendWebhook(`https://127.0.0.1:${srv.port}/`, body, headers, loose);
    expect(r).toMatchObject({ status: 500, body: '{"error":"boom"}' });
    expect(r.error).toBeUndefined();
  });

  it('truncates a 100 KB response body to 4096 bytes', async () => {
    const srv = await startServer((_req, res) => res.end('a'.repeat(100 * 1024)));
    const r = await sendWebhook(`https://127.0.0.1:${srv.port}/`, body, headers, loose);
    expect(r.status).toBe(200);
    expect(MAX_RESPONSE_BODY_BYTES).toBe(4096);
    expect(Buffer.byteLength(r.body)).toBe(4096);
    expect(r.body).toBe('a'.repeat(4096));
  });

  it('truncation never splits a UTF-8 character', async () => {
    const srv = await startServer((_req, res) => res.end('€'.repeat(40_000))); // 3 bytes each
    const r = await sendWebhook(`https://127.0.0.1:${srv.port}/`, body, headers, loose);
    expect(r.body).toBe('€'.repeat(1365)); // 4095 bytes; the 4096th byte is a partial char
  });

  it('parses Retry-After delta-seconds and HTTP-date', async () => {
    const s1 = await startServer((_req, res) => res.writeHead(429, { 'retry-after': '7' }).end('slow down'));
    const r1 = await sendWebhook(`https://127.0.0.1:${s1.port}/`, body, headers, loose);
    expect(r1).toMatchObject({ status: 429, body: 'slow down', retryAfterMs: 7000 });

    const s2 = await startServer((_req, res) => res.writeHead(503, { 'retry-after': new Date(Date.now() + 120_000).toUTCString() }).end());
    const r2 = await sendWebhook(`https://127.0.0.1:${s2.port}/`, body, headers, loose);
    expect(r2.status).toBe(503);
    expect(r2.retryAfterMs).toBeGreaterThan(115_000);
    expect(r2.retryAfterMs).toBeLessThanOrEqual(120_000);
  });

  it('times out a server that never answers: status 0 within ~timeoutMs, socket destroyed', async () => {
    let serverSawClose = false;
    const srv = await startServer(
      (req) => {
        req.socket.on('close', () => void (serverSawClose = true));
      },
      { onRequestStart: true },
    );
    const r = await sendWebhook(`https://127.0.0.1:${srv.port}/`, body, headers, { timeoutMs: 300, allowLoopback: true });
    expect(r).toMatchObject({ status: 0, body: '', error: 'timeout after 300 ms' });
    expect(r.durationMs).toBeGreaterThanOrEqual(295);
    expect(r.durationMs).toBeLessThan(1_500);
    await sleep(100);
    expect(serverSawClose).toBe(true);
  });

  it('a server that destroys the socket yields status 0 with a connection error', async () => {
    const srv = await startServer((req) => req.socket.destroy());
    const r = await sendWebhook(`https://127.0.0.1:${srv.port}/`, body, headers, loose);
    expect(r.status).toBe(0);
    expect(r.error).toMatch(/^connection reset \((ECONNRESET|EPIPE)\)$/);
    expect(srv.requests).toHaveLength(1); // no retry on a fresh socket
  });

  it('a closed port yields status 0 connection refused', async () => {
    const port = await freePort();
    const r = await sendWebhook(`https://127.0.0.1:${port}/`, body, headers, loose);
    expect(r).toMatchObject({ status: 0, error: 'connection refused (ECONNREFUSED)' });
  });

  it('verifies TLS: a cert the process does not trust is a tls error', async () => {
    const other = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' });
    const srv = await startServer((_req, res) => res.end('should not get here'), { cert: other.cert, key: other.private });
    const r = await sendWebhook(`https://localhost:${srv.port}/`, body, headers, loose);
    expect(r.status).toBe(0);
    expect(r.error).toMatch(/^tls error \(/);
    expect(srv.requests).toHaveLength(0);
  });

  it('reuses keep-alive sockets, and retries once on a new socket when a pooled one is dead', async () => {
    const perSocket = new WeakMap<Socket, number>();
    const srv = await startServer((req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n === 2) return void req.socket.destroy(); // the receiver "closed" the idle socket
      res.end(`ok ${n}`);
    });
    const url = `https://127.0.0.1:${srv.port}/`;
    expect((await sendWebhook(url, body, headers, loose)).status).toBe(200);
    await sleep(20);
    const r = await sendWebhook(url, body, headers, loose);
    expect(r).toMatchObject({ status: 200, body: 'ok 1' });
    expect(srv.connections).toBe(2);
    expect(srv.requests).toHaveLength(3);
    expect(srv.requests.every((q) => q.body.equals(Buffer.from(body)))).toBe(true);
  });

  it('refuses a target whose DNS lookup fails, and rejects invalid URLs', async () => {
    const r1 = await sendWebhook('https://nonexistent.invalid/', body, headers, loose);
    expect(r1).toMatchObject({ status: 0, error: expect.stringMatching(/^dns lookup failed \(/) });
    const r2 = await sendWebhook('not a url', body, headers, loose);
    expect(r2).toMatchObject({ status: 0, error: 'invalid url' });
    const r3 = await sendWebhook('https://user:pw@127.0.0.1:1/', body, headers, loose);
    expect(r3).toMatchObject({ status: 0, error: 'url must not contain credentials' });
  });

  it('an invalid header value fails before connecting and never echoes header values', async () => {
    const srv = await startServer((_req, res) => res.end());
    const r = await sendWebhook(`https://127.0.0.1:${srv.port}/`, body, { 'X-Service-Signature': `${secret}\r\nX: y` }, loose);
    expect(r.status).toBe(0);
    expect(r.error).toMatch(/^invalid request headers \(/);
    expect(r.error).not.toContain(secret);
    await sleep(50);
    expect(srv.connections).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['0', 0],
    ['7', 7000],
    [' 120 ', 120_000],
    ['Wed, 01 Jan 2025 00:00:30 GMT', 30_000],
    ['Tue, 31 Dec 2024 23:00:00 GMT', 0], // in the past
    ['Wednesday, 01-Jan-25 00:01:00 GMT', 60_000],
    ['7.5', undefined],
    ['-1', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j -> %j', (v, ms) => {
    expect(parseRetryAfter(v, now)).toBe(ms);
  });
});
