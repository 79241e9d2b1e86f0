/**
 * A half-signed-in session reaches only its two-factor step: the session authorizer's policy
 * allows just the route lines marked for that step (pinned here from the generated route list),
 * and the handler boundary (lib/http.ts) refuses any other line with 403 `two_factor_required`,
 * should a policy ever be wider.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { sessionRoutes } from '../../lib/auth/policy';
import { apiHandler } from '../../lib/http';
import { Success } from '../../lib/schemas';

const label = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe("the session authorizer's routes for a half-signed-in session", () => {
  it('a code due: the second step, reading the session, signing out', () => {
    expect(sessionRoutes('verify').map(label).sort()).toEqual(['DELETE /api/session', 'GET /api/session', 'POST /api/session/two-factor']);
  });

  it('a set-up due: the set-up, reading the session, signing out', () => {
    expect(sessionRoutes('enrol').map(label).sort()).toEqual([
      'DELETE /api/session',
      'GET /api/account/two-factor',
      'GET /api/session',
      'POST /api/account/two-factor',
      'POST /api/account/two-factor/confirm',
    ]);
  });

  it('a full session: every session route', () => {
    expect(sessionRoutes().length).toBeGreaterThan(sessionRoutes('enrol').length + 10);
  });
});

describe('the handler boundary', () => {
  // A line the permission table opens to every role (the boundary refuses a route it does not
  // name), so only the two-factor step decides here.
  const line = (twoFactorStep?: readonly ('verify' | 'enrol')[]) =>
    ({
      method: 'GET',
      path: '/api/session',
      handler: 'test',
      auth: 'session',
      access: 'none',
      summary: 'Test',
      status: 200,
      response: Success,
      ...(twoFactorStep && { twoFactorStep }),
    }) as const;
  const context = { functionName: 'test', awsRequestId: 'req-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
  const eventWith = (twoFactor?: string) =>
    ({
      httpMethod: 'GET',
      path: '/api/session',
      resource: '/api/session',
      headers: {},
      requestContext: {
        requestId: 'req-1',
        authorizer: { tenantId: 't', tenantSlug: 's', userId: 'u', email: 'u@x.example', role: 'admin', ...(twoFactor && { twoFactor }) },
      },
    }) as unknown as APIGatewayProxyEvent;
  const call = async (route: ReturnType<typeof line>, twoFactor?: string) => {
    const handler = apiHandler(route as never, (async () => ({ success: true })) as never);
    const res = (await handler(eventWith(twoFactor), context)) as APIGatewayProxyResult;
    return [res.statusCode, JSON.parse(res.body)];
  };

  it('refuses a half-signed-in session on a line not open to its step', async () => {
    const refused = [
      403,
      { error: 'finish signing in first: enter your two-factor code, or set up two-factor sign-in', code: 'two_factor_required' },
    ];
    expect(await call(line(), 'verify')).toEqual(refused);
    expect(await call(line(['enrol']), 'verify')).toEqual(refused);
    expect(await call(line(['verify']), 'enrol')).toEqual(refused);
  });

  it("serves the step's own lines, and a full session everywhere", async () => {
    expect(await call(line(['verify']), 'verify')).toEqual([200, { success: true }]);
    expect(await call(line(['verify', 'enrol']), 'enrol')).toEqual([200, { success: true }]);
    expect(await call(line())).toEqual([200, { success: true }]);
  });
});
