/**
 * The local gateway itself: no request target, header or body can stop it; the console's files
 * are served outside /api with client-side routes falling back to index.html; every answer
 * carries the security headers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../lib/security-headers';
import { startStack, type Stack } from '../helpers/stack';
import { createGateway } from '../../dev/gateway';

let stack: Stack;
let consoleUrl: string;
let closeConsoleGateway: () => Promise<void>;
let dir: string;

beforeAll(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'tp-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Console</title><script type="module" src="/assets/app-1a2b.js"></script>');
  writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("hi")');
  writeFileSync(join(dir, '.secret'), 'no');
  const gw = createGateway({ consoleDir: dir });
  consoleUrl = await gw.listen(0);
  closeConsoleGateway = gw.close;
});
afterAll(async () => {
  await closeConsoleGateway?.();
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A request sent byte for byte, as fetch would never send it; resolves with the raw answer. */
function rawRequest(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // write, not end: a half-closed socket would end the answer before it is written.
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let out = '';
    socket.on('data', (c) => (out += c.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

const statusOf = (raw: string) => Number(raw.slice(9, 12));
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

describe('request targets that are not plain paths', () => {
  const targets = [
    '//',
    '/\\',
    '//?x',
    '*',
    'http://example.com/api/v1/pipeline',
    'example.com:443',
    '/%',
    '/api/v1/%zz',
    '/api/v1/../v1/../../etc/passwd',
    '/./api//v1/pipeline',
    '/api/webhooks/%2e%2e',
  ];
  for (const target of targets) {
    for (const method of ['GET', 'DELETE', 'OPTIONS']) {
      it(`${method} ${target} is answered (the page, or { error }) and the gateway keeps serving`, async () => {
        const raw = await rawRequest(consoleUrl, `${method} ${target} HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n`);
        const status = statusOf(raw);
        expect([200, 400, 404], raw).toContain(status);
        if (status === 200) expect(raw).toContain('<title>Console</title>');
        else expect(typeof bodyOf(raw).error).toBe('string');
        const after = await fetch(`${consoleUrl}/api/v1/openapi.json`);
        expect(after.status).toBe(200);
      });
    }
  }

  it('a request line or headers too large get 431 with { error }, not a reset', async () => {
    const raw = await rawRequest(stack.url, `GET /api/v1/pipeline HTTP/1.1\r\nHost: local\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(statusOf(raw)).toBe(431);
    expect(bodyOf(raw)).toEqual({ error: 'request line or headers too large', code: 'headers_too_large' });
    expect((await stack.call('GET', '/api/v1/openapi.json')).status).toBe(200);
  });

  it('a malformed request is a 400 with { error }', async () => {
    const raw = await rawRequest(stack.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(statusOf(raw)).toBe(400);
    expect(bodyOf(raw).error).toMatch(/malformed/);
  });
});

describe('security headers', () => {
  it('API answers, success and error, carry them with a CSP that loads nothing', async () => {
    for (const res of [
      await stack.call('GET', '/api/v1/openapi.json'),
      await stack.call('GET', '/api/v1/pipeline'),
      await stack.call('GET', '/api/nope'),
    ]) {
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});

describe('the console files', () => {
  const get = (path: string, method = 'GET') => fetch(`${consoleUrl}${path}`, { method });

  it('serves index.html at / and at client-side routes, revalidated, with the console CSP', async () => {
    for (const path of ['/', '/settings/tokens', '/settings/webhooks/0190', '/docs']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(CONSOLE_CSP).toMatch(/frame-ancestors 'none'/);
      expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(await res.text()).toContain('<title>Console</title>');
    }
  });

  it('serves hashed assets with a year of caching, and HEAD without a body', async () => {
    const res = await get('/assets/app-1a2b.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log("hi")');
    const head = await get('/assets/app-1a2b.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('never serves dot-files or anything outside its folder, and a missing asset is a 404', async () => {
    for (const path of ['/.secret', '/%2esecret', '/assets/missing.js', '/%2e%2e/%2e%2e/package.json', '/..%2f..%2fpackage.json']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ error: 'Not found', code: 'not_found' });
    }
  });

  it('paths under /api are never the console: an unknown API path is a JSON 404', async () => {
    const res = await get('/api/settings');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('a write outside /api is a 404, not the page', async () => {
    const res = await fetch(`${consoleUrl}/settings`, { method: 'POST' });
    expect(res.status).toBe(404);
  });

  it('without a built console, pages answer 503 saying how to build it', async () => {
    const gw = createGateway({ consoleDir: join(dir, 'missing') });
    const url = await gw.listen(0);
    try {
      const res = await fetch(`${url}/`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/not built/);
    } finally {
      await gw.close();
    }
  });
});
