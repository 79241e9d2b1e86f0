/**
 * Hostile input through the local gateway (test/integration/malformed/fixture.ts). This file: every
 * route of the table (lib/routes.ts) gets the same hostile query strings, headers and cookies (and,
 * when it takes a body, hostile bodies and content types; when it has a path parameter, hostile
 * path values). Whatever the input, the answer is never a 5xx, and every non-2xx body is exactly
 * `{ error: string, code, field? }`.
 */
import { describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS } from '../../../lib/gateway-responses';
import { PASSWORD } from '../../helpers/stack';
import { casesFor, type Case } from './cases';
import { cookie, isErrorBody, label, ROUTES, send, sessionUser, stack } from './fixture';

describe('hostile input sweep', () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  for (const r of ROUTES) {
    it(`${label(r)}: never 5xx, every refusal is exactly { error, code, field? }`, async () => {
      const cases = casesFor(r);
      expect(cases.length).toBeGreaterThan(30);
      const baseline = await send(r, { name: 'baseline' });
      // A plain valid request reaches the handler: it succeeds, or the handler (not the
      // gateway) says that the random id it names is not found.
      const hint = `${label(r)}: a plain valid request must reach its handler (a new route needs its body in validBody()): ${baseline.text.slice(0, 200)}`;
      if (baseline.status === 404) expect(baseline.body, hint).not.toEqual({ error: GATEWAY_ERRORS.notFound.error, code: 'not_found' });
      if (r.path === '/api/session/password') expect([baseline.status, baseline.body], hint).toEqual([400, { error: 'current_password is incorrect', code: 'invalid_field', field: 'current_password' }]);
      else if (label(r) === 'POST /api/members') expect([baseline.status, baseline.body], hint).toEqual([409, { error: `a user with email ${sessionUser.email} already exists`, code: 'conflict', field: 'email' }]);
      else expect([r.status, 404], hint).toContain(baseline.status);
      // Login counts every attempt in flight towards the lockout (so parallel guesses cannot
      // slip past it); valid logins are therefore sent one at a time.
      const results: (readonly [Case, Awaited<ReturnType<typeof send>>])[] = [];
      if (r.path === '/api/session') for (const c of cases) results.push([c, await send(r, c)] as const);
      else results.push(...(await Promise.all(cases.map(async (c) => [c, await send(r, c)] as const))));
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      for (const [c, res] of results) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${c.name}: ${res.status} ${res.text.slice(0, 200)}`);
        else if ((res.status < 200 || res.status >= 300) && !isErrorBody(res.body)) {
          failures.push(`${c.name}: ${res.status} body is not { error: string }: ${res.text.slice(0, 200)}`);
        }
        // Without a query schema the query string is ignored: the answer is the baseline's.
        if (!r.query && c.query !== undefined && res.status !== baseline.status) {
          failures.push(`${c.name}: ${res.status}, not ${baseline.status} as without a query: ${res.text.slice(0, 200)}`);
        }
      }
      expect(failures).toEqual([]);
      // The sweep reached the handler: it did not stop at the gateway for every case. A route
      // with a query, body or path schema refuses some input with 400; one without any has
      // nothing to refuse and answers.
      if (r.query || r.body || r.params) expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
      else expect(results.filter(([, res]) => res.status === r.status).length).toBeGreaterThan(0);
    });
  }

  it('the shared session survived the sweep: not logged out, its account not locked', async () => {
    const res = await stack.call('GET', '/api/session', { headers: { Cookie: cookie } });
    expect([res.status, res.body?.data?.user?.email]).toEqual([200, sessionUser.email]);
    const again = await stack.call('POST', '/api/session', { body: { email: sessionUser.email, password: PASSWORD } });
    expect(again.status).toBe(200);
  });

  it('Object.prototype is not polluted by any of it', () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
    const probe = {} as Record<string, unknown>;
    expect(probe.x).toBeUndefined();
    expect(probe.polluted).toBeUndefined();
  });
});
