/**
 * Handler results are typed by their route's response schema: `npx tsc -p .` checks this file,
 * and each `@ts-expect-error` below must meet an error, or tsc fails with "Unused
 * '@ts-expect-error' directive". So a handler returning the wrong shape cannot compile, and if
 * apiHandler stopped checking results, this file would stop compiling instead.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { apiHandler, Reply } from '../../lib/http';
import { route } from '../../lib/routes';
// PATCH /candidates/{id} takes Idempotency-Key, so its handler must be given the module (as
// functions/update-candidate.ts does); without the header it never touches the table.
import * as idempotency from '../../lib/idempotency';

const candidate = {
  id: '01900000-0000-7000-8000-0000000000c1',
  name: 'Ada',
  email: null,
  phone: null,
  stage: 'applied' as const,
  resume_url: null,
  req_title: null,
  req_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  stage_entered_at: '2026-01-01T00:00:00.000Z',
  person_id: null,
  source: null,
  rejection: null,
};

// ---- what must not compile -------------------------------------------------------------------

// biome-ignore lint/suspicious/noExportsInTest: exported so that tsc checks every shape below and reports no unused value
export const wrongShapes = [
  // @ts-expect-error -- PATCH /candidates/{id} answers { data: Candidate }, not the bare candidate
  apiHandler(route('update-candidate'), async () => candidate, { idempotency }),
  // @ts-expect-error -- a field of the wrong type (stage is an enum)
  apiHandler(route('update-candidate'), async () => ({ data: { ...candidate, stage: 'hired' } }), { idempotency }),
  // @ts-expect-error -- a required field missing (updated_at)
  apiHandler(route('update-candidate'), async () => ({ data: { ...candidate, updated_at: undefined } }), { idempotency }),
  // @ts-expect-error -- DELETE /api/tokens/{id} answers { success: boolean }
  apiHandler(route('revoke-token'), async () => ({ ok: true })),
  // @ts-expect-error -- a Reply carries the route's shape too
  apiHandler(route('login'), async () => new Reply({ user: 'x' }, { cookies: [] })),
  // @ts-expect-error -- nothing at all is not a response
  apiHandler(route('get-pipeline'), async () => undefined),
];

// ---- what does, and what it answers ----------------------------------------------------------

const context = { functionName: 'test', awsRequestId: 'r', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const event = (over: Partial<APIGatewayProxyEvent>) =>
  ({
    httpMethod: 'PATCH',
    path: `/api/v1/candidates/${candidate.id}`,
    headers: { 'content-type': 'application/json' },
    pathParameters: { id: candidate.id },
    body: JSON.stringify({ name: 'Ada' }),
    requestContext: { requestId: 'r', authorizer: { tenantId: 't', tenantSlug: 's', tokenId: 'k', scopes: '*' } },
    ...over,
  }) as unknown as APIGatewayProxyEvent;

describe('typed handler results', () => {
  it('a handler returning its route shape answers it with the route status', async () => {
    const r = route('update-candidate');
    const handler = apiHandler(r, async ({ body }) => ({ data: { ...candidate, name: body.name ?? candidate.name } }), { idempotency });
    const res = (await handler(event({}), context)) as APIGatewayProxyResult;
    expect(res.statusCode).toBe(r.status);
    expect(r.response.safeParse(JSON.parse(res.body)).success).toBe(true);
  });

  it('a Reply of the route shape keeps its own status', async () => {
    const r = route('update-candidate');
    const handler = apiHandler(r, async () => new Reply({ data: candidate }, { status: 202 }), { idempotency });
    const res = (await handler(event({}), context)) as APIGatewayProxyResult;
    expect(res.statusCode).toBe(202);
    expect(JSON.parse(res.body)).toEqual({ data: candidate });
  });

  it('the refused shapes above are real handlers (tsc is what refuses them)', () => {
    expect(wrongShapes).toHaveLength(6);
    for (const h of wrongShapes) expect(h).toBeTypeOf('function');
  });
});
