/**
 * The OpenAPI document served by the gateway: public, 3.1, and in step with the route table
 * and the schemas (every route, its success status, its auth responses, its parameters).
 * Auth responses follow the route's auth kind: token routes 401 and 403 (scope), session
 * routes 401 and, when they write, 403 (cross-site), public routes only what they declare in
 * `errors`.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { SESSION_COOKIE } from '../../lib/auth/session';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { LIST_STAGES, MAX_OFFSET, REQ_STATUSES, SCOPES, STAGES } from '../../lib/model';
import { routes, type Route } from '../../lib/routes';
import { responseOf } from '../../lib/openapi';
import { PASSWORD, startStack, type Stack } from '../helpers/stack';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ROUTES: readonly Route[] = routes;
const label = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path}`;

let stack: Stack;
let res: Awaited<ReturnType<Stack['call']>>;
let doc: Json;

beforeAll(async () => {
  stack = await startStack();
  res = await stack.call('GET', '/api/v1/openapi.json');
  doc = res.body;
});
afterAll(() => stack.close());

const op = (method: string, path: string): Json => doc.paths?.[path]?.[method.toLowerCase()];
const queryParam = (method: string, path: string, name: string): Json =>
  (op(method, path)?.parameters ?? []).find((p: Json) => p.in === 'query' && p.name === name);
/** Follow a local `#/components/...` reference. */
const deref = (schema: Json): Json =>
  schema?.$ref
    ? schema.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((o: Json, k: string) => o?.[k], doc)
    : schema;

describe('GET /api/v1/openapi.json', () => {
  it('needs no token and answers 200 JSON', () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc).toBeTypeOf('object');
  });

  it('is the same with a token, and an invalid token does not break it', async () => {
    const t = await (await stack.tenant()).token(['pipeline:read']);
    const withToken = await stack.call('GET', '/api/v1/openapi.json', { token: t });
    expect(withToken.status).toBe(200);
    expect(withToken.body.paths).toEqual(doc.paths);
    const garbage = await stack.call('GET', '/api/v1/openapi.json', { headers: { Authorization: 'Bearer nope' } });
    expect(garbage.status).toBe(200);
    expect(garbage.body.paths).toEqual(doc.paths);
  });

  it('is the same with a session cookie, and an unknown or garbage cookie does not break it', async () => {
    const t = await stack.tenant();
    const u = await t.user('recruiter');
    const cookie = await stack.login(u.email, PASSWORD);
    for (const c of [cookie, `${SESSION_COOKIE}=${randomBytes(32).toString('base64url')}`, 'garbage;;=']) {
      const res = await stack.call('GET', '/api/v1/openapi.json', { headers: { Cookie: c } });
      expect(res.status, c).toBe(200);
      expect(res.body.paths).toEqual(doc.paths);
    }
  });

  it('ignores its query string (it has no query schema)', async () => {
    expect(ROUTES.find((r) => r.path === '/api/v1/openapi.json')!.query).toBeUndefined();
    const res = await stack.call('GET', '/api/v1/openapi.json?format=yaml&limit=1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(doc);
  });

  it('only GET serves it', async () => {
    const post = await stack.call('POST', '/api/v1/openapi.json', { body: {} });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ error: GATEWAY_ERRORS.notFound.error, code: 'not_found' });
  });

  it('is OpenAPI 3.1.x with a title, a version and a server', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    expect(doc.servers).toHaveLength(1);
    expect(doc.servers[0].url).toBe(stack.url);
  });

  it('declares bearer auth, the session cookie and the Error schema { error: string }', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE });
    expect(SESSION_COOKIE).toBe('__Host-tp_session');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearerAuth', 'sessionCookie']);
    const error = doc.components.schemas.Error;
    expect(error.type).toBe('object');
    expect(error.properties.error.type).toBe('string');
    expect(error.required).toEqual(['error']);
  });
});

/** Auth statuses a route answers because of its auth kind (before what `errors` adds). */
/** A session route answers 403 for a role, a cross-site write, or a temporary password (unless it is open to one). */
const authStatuses = (r: Route): string[] =>
  r.auth === 'token'
    ? ['401', '403']
    : r.auth === 'session'
      ? r.method === 'GET' && r.beforePasswordChange && !r.role
        ? ['401']
        : ['401', '403']
      : [];
const declared = (r: Route) => Object.keys(r.errors ?? {});

describe('paths follow the route table', () => {
  it('every route is there with its method, and nothing else', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(ROUTES.map(label).sort());
  });

  for (const r of ROUTES) {
    describe(label(r), () => {
      it('has a unique operationId and a summary', () => {
        const o = op(r.method, r.path);
        expect(o, label(r)).toBeDefined();
        expect(o.operationId).toEqual(expect.any(String));
        expect(o.summary).toBe(r.summary);
        const ids = ROUTES.map((x) => op(x.method, x.path)?.operationId);
        expect(ids.filter((id) => id === o.operationId)).toHaveLength(1);
      });

      const auth = authStatuses(r);
      const undeclaredAuth = ['401', '403'].filter((st) => !auth.includes(st) && !declared(r).includes(st));
      it(`lists its success status ${r.status}, ${[...new Set([...auth, ...declared(r)])].join(', ') || 'no auth statuses'} (auth ${r.auth}), and { error } bodies for every error`, () => {
        const responses = op(r.method, r.path).responses as Record<string, Json>;
        const statuses = Object.keys(responses);
        expect(statuses).toContain(String(r.status));
        for (const st of auth) expect(statuses, `${label(r)}: ${st} for auth ${r.auth}`).toContain(st);
        // Nothing the route cannot answer: no 401/403 that neither its auth nor `errors` gives.
        for (const st of undeclaredAuth) expect(statuses, `${label(r)}: ${st} without auth or errors`).not.toContain(st);
        expect(statuses).toContain('404');
        expect(statuses).toContain('500');
        if (r.html) {
          // A careers page: the page and the not-found page are HTML (a bad slug or id is the
          // not-found page, never a 400); what the gateway and the runtime answer stays JSON.
          // A page's form (a body) may refuse with the pages its line lists (400, 415, 429).
          if (!r.body) expect(statuses).not.toContain('400');
          const pages = [String(r.status), '404', ...Object.keys(r.errors ?? {}).filter((st) => st !== '304' && st !== '429')];
          for (const st of pages) expect(Object.keys(responses[st].content), `${label(r)} ${st}`).toEqual(['text/html']);
          for (const st of ['429', '500'])
            expect(deref(responses[st].content['application/json'].schema)).toBe(doc.components.schemas.Error);
          return;
        }
        if (r.query || r.body || r.params) expect(statuses).toContain('400');
        else if (!declared(r).includes('400')) expect(statuses, `${label(r)} has no input to refuse`).not.toContain('400');
        for (const [st, description] of Object.entries(r.errors ?? {})) {
          expect(responses[st]?.description, `${label(r)} ${st}`).toBe(description);
        }
        for (const [status, response] of Object.entries(responses)) {
          if (Number(status) >= 400) {
            expect(deref(response.content['application/json'].schema), `${label(r)} ${status}`).toBe(doc.components.schemas.Error);
          }
        }
        const success = responses[String(r.status)].content['application/json'].schema;
        expect(success.type).toBe('object');
        const { $schema: _, ...expected } = z.toJSONSchema(responseOf(r), { io: 'output', unrepresentable: 'any' }) as Json;
        expect(success).toEqual(expected);
      });

      if (r.auth === 'token') {
        it("401 is the gateway's message and 403 names the scope", () => {
          const o = op(r.method, r.path);
          expect(o.responses['401'].description).toBe(GATEWAY_ERRORS.unauthorized.error);
          expect(o.responses['403'].description).toContain(r.scope);
        });
      }

      it(`security requirement for auth ${r.auth}`, () => {
        const o = op(r.method, r.path);
        if (r.auth === 'token') {
          expect(o.security).toEqual([{ bearerAuth: [r.scope] }]);
          expect(o.responses['403'].description).toContain(r.scope);
        } else if (r.auth === 'session') {
          expect(o.security).toEqual([{ sessionCookie: [] }]);
        } else {
          // Public: an empty list overrides any document-wide requirement.
          expect(r.auth).toBe('none');
          expect(o.security).toEqual([]);
        }
        expect(doc.security).toBeUndefined();
      });

      it('declares exactly its path parameters, required', () => {
        const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const params = (op(r.method, r.path).parameters as Json[]).filter((p) => p.in === 'path');
        expect(params.map((p) => p.name)).toEqual(names);
        for (const p of params) expect(p.required, p.name).toBe(true);
      });

      it(
        r.body ? 'has a required JSON request body' : r.upload ? 'has a required file body of its media types' : 'has no request body',
        () => {
          const o = op(r.method, r.path);
          if (r.body) {
            expect(o.requestBody.required).toBe(true);
            expect(o.requestBody.content['application/json'].schema.type).toBe('object');
          } else if (r.upload) {
            expect(o.requestBody.required).toBe(true);
            expect(Object.keys(o.requestBody.content)).toEqual(r.upload);
          } else {
            expect(o.requestBody).toBeUndefined();
          }
        },
      );
    });
  }
});

describe('GET /api/v1/candidates parameters', () => {
  const param = (name: string) => queryParam('GET', '/api/v1/candidates', name);

  it('lists exactly stage, req_id, limit and offset (the spec) plus cursor, q, updated_after, rejected and source, all optional, in the query', () => {
    const params = op('GET', '/api/v1/candidates').parameters as Json[];
    expect(params.map((p) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:cursor',
      'query:limit',
      'query:offset',
      'query:q',
      'query:rejected',
      'query:req_id',
      'query:source',
      'query:stage',
      'query:updated_after',
    ]);
    for (const p of params) expect(p.required, p.name).toBe(false);
  });

  it('stage is an enum of the list stages, without rejected', () => {
    const { schema } = param('stage');
    expect(schema.type).toBe('string');
    expect(schema.enum).toEqual(LIST_STAGES);
    expect(schema.enum).not.toContain('rejected');
    expect(schema.enum).toHaveLength(STAGES.length - 1);
  });

  it('req_id is a UUID string', () => {
    expect(param('req_id').schema).toMatchObject({ type: 'string', format: 'uuid' });
  });

  it('limit is an integer 1..200 defaulting to 50', () => {
    expect(param('limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
  });

  it('offset is an integer from 0, bounded, defaulting to 0', () => {
    expect(param('offset').schema).toMatchObject({ type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 });
  });
});

describe('other parameters and bodies', () => {
  it('GET /api/v1/requisitions takes status (enum, default open) and limit', () => {
    const params = op('GET', '/api/v1/requisitions').parameters as Json[];
    expect(params.map((p) => p.name).sort()).toEqual(['limit', 'status']);
    expect(queryParam('GET', '/api/v1/requisitions', 'status').schema).toMatchObject({ enum: [...REQ_STATUSES], default: 'open' });
    expect(queryParam('GET', '/api/v1/requisitions', 'limit').schema).toMatchObject({ type: 'integer', maximum: 200 });
  });

  it('GET /api/v1/pipeline takes no parameters', () => {
    expect(op('GET', '/api/v1/pipeline').parameters).toEqual([]);
  });

  it('DELETE /api/tokens/{id} takes the token id in the path, a UUID', () => {
    const params = op('DELETE', '/api/tokens/{id}').parameters as Json[];
    expect(params).toHaveLength(1);
    expect(params[0]).toMatchObject({ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
    expect(op('DELETE', '/api/tokens/{id}').responses['400']).toBeDefined();
  });

  it('the session and token listing routes and the document take no parameters', () => {
    for (const [method, path] of [
      ['GET', '/api/session'],
      ['DELETE', '/api/session'],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['POST', '/api/session'],
      ['GET', '/api/v1/openapi.json'],
    ]) {
      expect(op(method!, path!).parameters, `${method} ${path}`).toEqual([]);
    }
  });

  it('POST /api/session requires email and password, refuses other fields, and lists 401, 403 and 429', () => {
    const o = op('POST', '/api/session');
    const schema = o.requestBody.content['application/json'].schema;
    expect([...schema.required].sort()).toEqual(['email', 'password']);
    expect(Object.keys(schema.properties).sort()).toEqual(['email', 'password']);
    expect(schema.properties.password).toMatchObject({ type: 'string', minLength: 1, maxLength: 256 });
    expect(schema.additionalProperties).toBe(false);
    for (const st of ['401', '403', '429']) expect(Object.keys(o.responses)).toContain(st);
  });

  it('POST /api/tokens requires a name and scopes among the known scopes', () => {
    const schema = op('POST', '/api/tokens').requestBody.content['application/json'].schema;
    expect([...schema.required].sort()).toEqual(['name', 'scopes']);
    expect(schema.properties.scopes).toMatchObject({ type: 'array', minItems: 1, items: { enum: [...SCOPES] } });
    expect(schema.additionalProperties).toBe(false);
  });

  it('POST /api/v1/candidates requires name only, and refuses other fields', () => {
    const schema = op('POST', '/api/v1/candidates').requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['name']);
    expect(Object.keys(schema.properties).sort()).toEqual(['email', 'name', 'phone', 'req_id', 'resume_url', 'stage']);
    expect(schema.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(schema.properties.stage.enum).toEqual([...STAGES]);
    expect(schema.properties.stage.default).toBe('applied');
    expect(schema.additionalProperties).toBe(false);
  });

  it('POST /api/v1/pipeline requires candidate_id and stage (every stage, rejected included)', () => {
    const schema = op('POST', '/api/v1/pipeline').requestBody.content['application/json'].schema;
    expect([...schema.required].sort()).toEqual(['candidate_id', 'stage']);
    expect(schema.properties.candidate_id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(schema.properties.stage.enum).toEqual([...STAGES]);
    expect(schema.additionalProperties).toBe(false);
  });
});
