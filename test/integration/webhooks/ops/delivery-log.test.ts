/**
 * Webhook operations through the local gateway and pipeline, against a real HTTPS receiver
 * (test/integration/webhooks/ops/fixture.ts). This file: the delivery log (GET
 * /api/webhooks/{id}/deliveries: pages, filters, categories) and the error categories of the test
 * operation.
 */
import { describe, expect, it } from 'vitest';
import { A, create, hookUrl, secretChecks, setSlowMs, useOpsFixture } from './fixture';

useOpsFixture();

describe('GET /api/webhooks/{id}/deliveries', () => {
  it('pages newest first with an opaque cursor, filters by status and event type, carries the category', async () => {
    const ok = await create({ url: hookUrl('/log-ok') });
    // Seven test sends: alternately accepted and refused (via a url switch).
    const expectSuccess: boolean[] = [];
    for (let i = 0; i < 7; i++) {
      const fail = i % 2 === 1;
      await A('PATCH', `/api/webhooks/${ok.id}`, { body: { url: hookUrl(fail ? '/fail-log' : '/log-ok') } });
      const res = await A('POST', `/api/webhooks/${ok.id}/test`);
      expect(res.body.success).toBe(!fail);
      expectSuccess.unshift(!fail); // newest first
    }
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await A('GET', `/api/webhooks/${ok.id}/deliveries?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen.map((d) => d.id)).size).toBe(7);
    expect(seen.map((d) => d.success)).toEqual(expectSuccess);
    const times = seen.map((d) => Date.parse(d.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    for (const d of seen) {
      expect(Object.keys(d).sort()).toEqual(
        [
          'attempt',
          'created_at',
          'dead_lettered',
          'duration_ms',
          'error',
          'error_category',
          'event_id',
          'event_type',
          'id',
          'next_attempt_at',
          'response_body',
          'response_status',
          'success',
        ].sort(),
      );
      expect(d.error_category).toBe(d.success ? null : 'http_status');
    }

    const failed = (await A('GET', `/api/webhooks/${ok.id}/deliveries?status=failed`)).body;
    expect(failed.data.map((d: any) => d.success)).toEqual([false, false, false]);
    expect(failed.next_cursor).toBeNull();
    const succeeded = (await A('GET', `/api/webhooks/${ok.id}/deliveries?status=succeeded&limit=2`)).body;
    expect(succeeded.data).toHaveLength(2);
    expect(succeeded.data.every((d: any) => d.success)).toBe(true);
    const rest = (await A('GET', `/api/webhooks/${ok.id}/deliveries?status=succeeded&limit=2&cursor=${succeeded.next_cursor}`)).body;
    expect(rest.data).toHaveLength(2);
    expect(rest.data.every((d: any) => d.success)).toBe(true);
    expect(new Set([...succeeded.data, ...rest.data].map((d: any) => d.id)).size).toBe(4);
    expect((await A('GET', `/api/webhooks/${ok.id}/deliveries?event_type=webhook.test`)).body.data).toHaveLength(7);
    expect((await A('GET', `/api/webhooks/${ok.id}/deliveries?event_type=candidate.created`)).body).toEqual({
      data: [],
      next_cursor: null,
    });
    // The detail keeps the spec's last 10, now with the category too.
    expect((await A('GET', `/api/webhooks/${ok.id}`)).body.deliveries[0].id).toBe(seen[0].id);
  });

  it('400 names the field for a bad limit, status, event type or cursor', async () => {
    const w = await create({ url: hookUrl('/log-bad') });
    for (const [query, field] of [
      ['limit=0', /limit/],
      ['limit=101', /limit/],
      ['limit=abc', /limit/],
      ['status=pending', /status/],
      ['event_type=DROP%20TABLE', /event_type/],
      ['cursor=not-a-cursor', /cursor/],
      [`cursor=${Buffer.from('a:123').toString('base64url')}`, /cursor/],
      ['page=2', /page/],
    ] as const) {
      const res = await A('GET', `/api/webhooks/${w.id}/deliveries?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'field']);
      expect(res.body.error, query).toMatch(field);
    }
  });
});

describe('POST /api/webhooks/{id}/test error categories', () => {
  it('names the category and a secret-free sentence', async () => {
    const cases: Array<[string, string, number]> = [
      ['/fail-cat', 'http_status', 500],
      ['/redirect-cat', 'redirect', 302],
    ];
    for (const [path, category, status] of cases) {
      const w = await create({ url: hookUrl(path) });
      const res = await A('POST', `/api/webhooks/${w.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, status, error: category });
      expect(typeof res.body.errorMessage).toBe('string');
      expect(res.body.errorMessage).not.toContain(w.secret.slice(6));
    }
    // Nothing listens on port 9 of 127.0.0.1.
    const refused = await create({ url: 'https://127.0.0.1:9/x' });
    const res = await A('POST', `/api/webhooks/${refused.id}/test`);
    expect(res.body).toMatchObject({ success: false, status: 0, error: 'connection', responseBody: '' });
    expect(res.body.errorMessage).toMatch(/connection refused/);
    const log = (await A('GET', `/api/webhooks/${refused.id}/deliveries`)).body.data;
    expect(log[0]).toMatchObject({ success: false, error_category: 'connection' });
  });

  it('a receiver slower than the attempt timeout is a timeout result, not a 500', async () => {
    const w = await create({ url: hookUrl('/slow-cat') });
    setSlowMs(3_000); // the stack's attempt timeout is 2 s
    try {
      const res = await A('POST', `/api/webhooks/${w.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, status: 0, error: 'timeout' });
      expect(res.body.errorMessage).toMatch(/timeout after 2000 ms/);
    } finally {
      setSlowMs(0);
    }
  });
});

secretChecks({ minSecrets: 6 });
