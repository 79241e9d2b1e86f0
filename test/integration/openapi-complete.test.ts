/**
 * The served OpenAPI document is complete: 413 on every operation that takes a body, the
 * outgoing webhooks in the 3.1 `webhooks` section (one per event type, envelope, data and the
 * signature headers), the error body's `code` enum and `field`, and `@redocly/cli lint` with the
 * recommended rules (redocly.yaml) finds nothing. The CLI runs offline on a file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../lib/errors';
import { ENDPOINT_DISABLED_EVENT, EVENT_TYPES, TEST_EVENT } from '../../lib/model';
import { routes, type Route } from '../../lib/routes';
import { PREVIOUS_SIGNATURE_HEADER } from '../../lib/webhooks/sign';
import { startStack, type Stack } from '../helpers/stack';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let stack: Stack;
let doc: Json;
beforeAll(async () => {
  stack = await startStack();
  doc = (await stack.call('GET', '/api/v1/openapi.json')).body;
});
afterAll(() => stack.close());

describe('error bodies', () => {
  it('the Error schema has error (required), a code enum of ERROR_CODES and field', () => {
    const e = doc.components.schemas.Error;
    expect(e.required).toEqual(['error']);
    expect(e.properties.code).toMatchObject({ type: 'string', enum: [...ERROR_CODES] });
    expect(e.properties.field).toMatchObject({ type: 'string' });
  });
});

describe('413', () => {
  for (const r of routes as readonly Route[]) {
    const o = () => doc.paths[r.path][r.method.toLowerCase()];
    if (r.body || r.upload) {
      it(`${r.method} ${r.path} takes a body and declares 413 with the Error body`, () => {
        expect(o().responses['413']?.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      });
    } else {
      it(`${r.method} ${r.path} takes no body and declares no 413`, () => expect(o().responses['413']).toBeUndefined());
    }
  }

  it('an oversized body really gets 413 with that body', async () => {
    const res = await stack.call('POST', '/api/session', {
      rawBody: 'x'.repeat(10 * 1024 * 1024 + 1),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });
});

describe('webhooks', () => {
  const ALL = [...EVENT_TYPES, TEST_EVENT, ENDPOINT_DISABLED_EVENT];

  it('one POST per event type, candidate.updated included, and nothing else', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...ALL].sort());
    expect(Object.keys(doc.webhooks)).toContain('candidate.updated');
    for (const t of ALL) expect(Object.keys(doc.webhooks[t]), t).toEqual(['post']);
  });

  for (const t of [...EVENT_TYPES, TEST_EVENT, ENDPOINT_DISABLED_EVENT]) {
    it(`${t}: the envelope {event, data, timestamp, tenantSlug} with its data, and the signature headers`, () => {
      const post = doc.webhooks[t].post;
      const body = post.requestBody.content['application/json'].schema;
      expect(body.required.sort()).toEqual(['data', 'event', 'tenantSlug', 'timestamp']);
      expect(body.properties.event.const ?? body.properties.event.enum?.[0]).toBe(t);
      expect(body.properties.data.type).toBe('object');
      expect(Object.keys(body.properties.data.properties).length).toBeGreaterThan(1);
      const headers = Object.fromEntries((post.parameters as Json[]).filter((p) => p.in === 'header').map((p) => [p.name, p]));
      for (const h of ['X-Service-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'X-Service-Event']) {
        expect(headers[h]?.required, `${t} ${h}`).toBe(true);
      }
      expect(headers[PREVIOUS_SIGNATURE_HEADER]?.required).toBe(false);
      expect(post.responses['2XX']).toBeDefined();
    });
  }
});

describe('@redocly/cli lint (recommended rules, redocly.yaml)', () => {
  it('finds no errors and no warnings in the served document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const { stdout } = await promisify(execFile)(
        join(process.cwd(), 'node_modules/.bin/redocly'),
        ['lint', file, '--config', join(process.cwd(), 'redocly.yaml'), '--format=json'],
        // Offline: no telemetry, no update check.
        {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
          timeout: 120_000,
          maxBuffer: 16 * 1024 * 1024,
        },
      ).catch((err: { stdout?: string; message: string }) => {
        // The CLI exits non-zero when it finds errors; its report is still on stdout.
        if (err.stdout) return { stdout: err.stdout };
        throw err;
      });
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
      const problems = (report.problems as Json[]).map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
