/**
 * The OpenAPI document served by the gateway: public, 3.1, and in step with the route table
 * and the schemas (every route, its success status, its auth responses, its parameters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { LIST_STAGES, MAX_OFFSET, REQ_STATUSES, STAGES } from '../../lib/model';
import { routes, type Route } from '../../lib/routes';
import { startStack, type Stack } from '../helpers/stack';

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
  schema?.$ref ? schema.$ref.replace(/^#\//, '').split('/').reduce((o: Json, k: string) => o?.[k], doc) : schema;

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
  });

  it('only GET serves it', async () => {
    const post = await stack.call('POST', '/api/v1/openapi.json', { body: {} });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ error: GATEWAY_ERRORS.notFound.error });
  });

  it('is OpenAPI 3.1.x with a title, a version and a server', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    expect(doc.servers).toHaveLength(1);
    expect(doc.servers[0].url).toBe(stack.url);
  });

  it('declares bearer auth and the Error schema { error: string }', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const error = doc.components.schemas.Error;
    expect(error.type).toBe('object');
    expect(error.properties.error.type).toBe('string');
    expect(error.required).toEqual(['error']);
  });
});

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

      it(`lists its success status ${r.status}, 401${r.auth === 'token' ? ', 403' : ''}, and { error } bodies for every error`, () => {
        const responses = op(r.method, r.path).responses as Record<string, Json>;
        expect(Object.keys(responses)).toContain(String(r.status));
        expect(Object.keys(responses)).toContain('401');
        if (r.auth === 'token') expect(Object.keys(responses)).toContain('403');
        expect(Object.keys(responses)).toContain('404');
        expect(Object.keys(responses)).toContain('500');
        if (r.query || r.body) expect(Object.keys(responses)).toContain('400');
        for (const [status, response] of Object.entries(responses)) {
          if (Number(status) >= 400) {
            expect(deref(response.content['application/json'].schema), `${label(r)} ${status}`).toBe(doc.components.schemas.Error);
          }
        }
        const success = responses[String(r.status)].content['application/json'].schema;
        expect(success.type).toBe('object');
        expect(success.properties).toHaveProperty('data');
      });

      it('names the scope it requires in its security requirement', () => {
        const o = op(r.method, r.path);
        if (r.auth === 'token') {
          expect(o.security).toEqual([{ bearerAuth: [r.scope] }]);
          expect(o.responses['403'].description).toContain(r.scope);
        } else {
          expect(o.security).not.toContainEqual(expect.objectContaining({ bearerAuth: expect.anything() }));
        }
      });

      it(r.body ? 'has a required JSON request body' : 'has no request body', () => {
        const o = op(r.method, r.path);
        if (r.body) {
          expect(o.requestBody.required).toBe(true);
          expect(o.requestBody.content['application/json'].schema.type).toBe('object');
        } else {
          expect(o.requestBody).toBeUndefined();
        }
      });
    });
  }
});

describe('GET /api/v1/candidates parameters', () => {
  const param = (name: string) => queryParam('GET', '/api/v1/candidates', name);

  it('lists exactly stage, req_id, limit and offset, all optional, in the query', () => {
    const params = op('GET', '/api/v1/candidates').parameters as Json[];
    expect(params.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['query:limit', 'query:offset', 'query:req_id', 'query:stage']);
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
