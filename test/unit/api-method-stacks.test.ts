/**
 * Where each route's API method lives (infra/constructs/api-method-stacks.ts): the stack itself
 * keeps the methods it held (ROOT_METHODS); every other method goes to the nested stack
 * `ApiMethods`, under the path segments the stack already has. A small API is synthesized here
 * without bundling, twice where a change must show: the stage's deployment follows a nested
 * method as it follows its own, or the stage would keep calling a replaced function.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { describe, expect, it } from 'vitest';
import { API_METHOD_STACK_ID, inRootStack, methodStackId, ROOT_METHODS } from '../../infra/constructs/api-method-stacks';
import { RouteApi } from '../../infra/constructs/route-api';
import { STAGES } from '../../infra/stages';
import { routes, type Route } from '../../lib/routes';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const route = (method: Route['method'], routePath: string, handler: string): Route =>
  ({ method, path: routePath, handler, auth: 'token', scope: 'candidates:read', access: 'read' }) as Route;

/** The stack's template and its nested stack of methods, for a route table. */
function synth(table: Route[]): { root: Json; nested: Json } {
  const outdir = mkdtempSync(path.join(tmpdir(), 'api-method-stacks-'));
  mkdirSync(outdir, { recursive: true });
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Small');
  const tableConstruct = new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING } });
  const api = new RouteApi(stack, 'Routes', { table: tableConstruct, routes: table, functions: new Map(), stage: STAGES.dev });
  const assembly = app.synth();
  const nestedStack = api.methodStacks.get(API_METHOD_STACK_ID);
  const nested = nestedStack ? readJson(assembly.directory, nestedStack.templateFile) : undefined;
  return { root: assembly.getStackByName('Small').template, nested };
}
function readJson(dir: string, file: string): Json {
  return JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
}
const ofType = (t: Json, type: string) => Object.entries<Json>(t.Resources).filter(([, r]) => r.Type === type);
const deploymentId = (t: Json) => ofType(t, 'AWS::ApiGateway::Deployment')[0]![0];

const KEPT = route('GET', '/api/v1/candidates', 'list-candidates');
const NEW = route('POST', '/api/v1/candidates/{id}/placement', 'get-placement');

describe('API method stacks', () => {
  it('every route the stack held stays in it; any other goes to the nested stack, and a new one moves none', () => {
    expect(inRootStack(KEPT)).toBe(true);
    expect(methodStackId(KEPT)).toBeUndefined();
    expect(methodStackId(NEW)).toBe(API_METHOD_STACK_ID);
    // A new method beside a kept one on the same path goes to the nested stack too.
    expect(methodStackId(route('DELETE', '/api/v1/candidates', 'x'))).toBe(API_METHOD_STACK_ID);
    const before = new Map(routes.map((r) => [`${r.method} ${r.path}`, methodStackId(r)]));
    expect([...before.values()].filter((id) => id === undefined).length).toBe(Object.values(ROOT_METHODS).flat().length);
  });

  it('a nested method hangs under the path segments the stack has, and creates only the segments after them', { timeout: 120_000 }, () => {
    const { root, nested } = synth([KEPT, NEW]);
    expect(ofType(root, 'AWS::ApiGateway::Method')).toHaveLength(1);
    const segments = (t: Json) => ofType(t, 'AWS::ApiGateway::Resource').map(([, r]) => r.Properties.PathPart);
    expect(segments(root).sort()).toEqual(['api', 'candidates', 'v1']);
    // `{id}` and `placement` are new; `candidates` is the stack's, reached through a parameter.
    expect(segments(nested).sort()).toEqual(['placement', '{id}']);
    const [, idSegment] = ofType(nested, 'AWS::ApiGateway::Resource').find(([, r]) => r.Properties.PathPart === '{id}')!;
    expect(Object.keys(nested.Parameters)).toContain(idSegment.Properties.ParentId.Ref);
    const [[, method]] = ofType(nested, 'AWS::ApiGateway::Method') as [[string, Json]];
    expect(method.Properties).toMatchObject({ HttpMethod: 'POST', AuthorizationType: 'CUSTOM' });
    expect(Object.keys(nested.Parameters)).toContain(method.Properties.AuthorizerId.Ref);
    expect(Object.keys(nested.Parameters)).toContain(method.Properties.RequestValidatorId.Ref);
    // The stage's deployment waits for the nested stack.
    const [, deployment] = ofType(root, 'AWS::ApiGateway::Deployment')[0]!;
    const [nestedId] = ofType(root, 'AWS::CloudFormation::Stack').find(([id]) => id.includes(API_METHOD_STACK_ID))!;
    expect(deployment.DependsOn).toContain(nestedId);
  });

  it('a nested method’s change gives the stage a new deployment; the same table gives the same one', { timeout: 180_000 }, () => {
    const first = deploymentId(synth([KEPT, NEW]).root);
    expect(deploymentId(synth([KEPT, NEW]).root)).toBe(first);
    // Another handler module: the function is replaced, and the stage must call the new one.
    expect(deploymentId(synth([KEPT, { ...NEW, handler: 'list-placements' }]).root)).not.toBe(first);
    expect(deploymentId(synth([KEPT, { ...NEW, auth: 'session', scope: undefined } as Route]).root)).not.toBe(first);
  });
});
