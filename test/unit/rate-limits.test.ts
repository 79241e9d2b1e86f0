/**
 * The deployed per-token rate limits (infra/constructs/rate-limits.ts) as synthesized, and the local
 * limiter's arithmetic on a fake clock. Synth skips bundling: nothing here reads a bundle.
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../dev/rate-limiter';
import { TalentPipelineStack } from '../../infra/stack';
import { flattenedTemplate } from '../helpers/stack-templates';
import { DEPLOYED_RETRY_AFTER, RATE_LIMIT_ENV, RATE_LIMITED, rateLimitsFrom, TOKEN_RATE_LIMITS } from '../../lib/rate-limits';
import { routes, type Route } from '../../lib/routes';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
/** A built console stand-in, as test/helpers/unit-global-setup.ts makes it. */
const CONSOLE_DIR = mkdtempSync(path.join(tmpdir(), 'rate-limits-console-'));
mkdirSync(path.join(CONSOLE_DIR, 'assets'));
writeFileSync(path.join(CONSOLE_DIR, 'index.html'), '<!doctype html><title>Talent Pipeline</title>');

const made = [CONSOLE_DIR];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function synth(context: Record<string, unknown> = {}) {
  const outdir = mkdtempSync(path.join(tmpdir(), 'rate-limits-'));
  made.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new TalentPipelineStack(app, 'TalentPipeline', { consoleDir: CONSOLE_DIR });
  return Template.fromJSON(flattenedTemplate(app.synth().directory, stack.artifactId));
}
const ofType = (t: Template, type: string): [string, Json][] =>
  Object.entries<Json>(t.toJSON().Resources).filter(([, r]) => r.Type === type);

describe('synthesized', () => {
  const t = synth();

  it('the API takes API keys from the authorizer (usageIdentifierKey)', () => {
    const [[, api]] = ofType(t, 'AWS::ApiGateway::RestApi') as [[string, Json]];
    expect(api.Properties.ApiKeySourceType).toBe('AUTHORIZER');
  });

  it('one usage plan on the stage with the published throttle and daily quota', () => {
    const plans = ofType(t, 'AWS::ApiGateway::UsagePlan');
    expect(plans).toHaveLength(1);
    const p = plans[0]![1].Properties;
    expect(p.Throttle).toEqual({ RateLimit: TOKEN_RATE_LIMITS.ratePerSecond, BurstLimit: TOKEN_RATE_LIMITS.burst });
    expect(p.Quota).toEqual({ Limit: TOKEN_RATE_LIMITS.quotaPerDay, Period: 'DAY' });
    expect(p.ApiStages).toHaveLength(1);
    const [[stageId]] = ofType(t, 'AWS::ApiGateway::Stage') as [[string, Json]];
    expect(p.ApiStages[0].Stage).toEqual({ Ref: stageId });
  });

  it('every token route, and only those, requires the API key (so the plan meters it)', () => {
    const [[authorizerId]] = ofType(t, 'AWS::ApiGateway::Authorizer').filter(([, a]) => a.Properties.Type === 'TOKEN') as [[string, Json]];
    const methods = ofType(t, 'AWS::ApiGateway::Method').filter(([, m]) => m.Properties.HttpMethod !== 'OPTIONS');
    const tokenMethods = methods.filter(([, m]) => m.Properties.AuthorizerId?.Ref === authorizerId);
    expect(tokenMethods).toHaveLength((routes as readonly Route[]).filter((r) => r.auth === 'token').length);
    for (const [id, m] of methods) expect(m.Properties.ApiKeyRequired ?? false, id).toBe(m.Properties.AuthorizerId?.Ref === authorizerId);
  });

  it.each([
    ['THROTTLED', RATE_LIMITED.throttled, DEPLOYED_RETRY_AFTER.throttled],
    ['QUOTA_EXCEEDED', RATE_LIMITED.quota, DEPLOYED_RETRY_AFTER.quota],
  ] as const)('%s answers 429 { error, code: rate_limited } with Retry-After', (type, answer, retryAfter) => {
    const found = ofType(t, 'AWS::ApiGateway::GatewayResponse').filter(([, r]) => r.Properties.ResponseType === type);
    expect(found).toHaveLength(1);
    const r = found[0]![1].Properties;
    expect(r.StatusCode).toBe('429');
    expect(JSON.parse(r.ResponseTemplates['application/json'])).toEqual({ error: answer.error, code: 'rate_limited' });
    expect(r.ResponseParameters).toEqual({
      'gatewayresponse.header.Content-Type': "'application/json'",
      'gatewayresponse.header.Cache-Control': "'no-store'",
      'gatewayresponse.header.Retry-After': `'${retryAfter}'`,
    });
  });

  it('only the token functions (and the member changes that revoke tokens) manage API keys: /apikeys and this plan, found by its name', () => {
    const [[planId, plan]] = ofType(t, 'AWS::ApiGateway::UsagePlan') as [[string, Json]];
    const fns = ofType(t, 'AWS::Lambda::Function');
    const withPlan = fns.filter(([, f]) => f.Properties.Environment?.Variables?.USAGE_PLAN_NAME);
    expect(withPlan.map(([id]) => id.replace(/Fn[0-9A-F]{8}$/, '')).sort()).toEqual([
      'ChangeMemberRole',
      'CreateToken',
      'DeactivateMember',
      'RemoveMember',
      'RevokeToken',
    ]);
    for (const [, f] of withPlan) expect(f.Properties.Environment.Variables.USAGE_PLAN_NAME).toBe(plan.Properties.UsagePlanName);
    const statements = ofType(t, 'AWS::IAM::Policy').flatMap(([id, p]) =>
      p.Properties.PolicyDocument.Statement.map((s: Json) => ({ id, roles: JSON.stringify(p.Properties.Roles), ...s })),
    );
    const apigw = statements.filter((s) => [].concat(s.Action).some((a: string) => a.startsWith('apigateway:')));
    const roleOf = (module: string) => JSON.stringify(fns.find(([id]) => id.startsWith(module))![1].Properties.Role);
    const of = (module: string) => apigw.filter((s) => s.roles.includes(JSON.parse(roleOf(module))['Fn::GetAtt'][0]));
    const create = of('CreateToken');
    expect(create.flatMap((s) => [].concat(s.Action)).sort()).toEqual(['apigateway:DELETE', 'apigateway:GET', 'apigateway:POST']);
    const post = create.find((s) => s.Action === 'apigateway:POST')!;
    expect(JSON.stringify(post.Resource)).toContain(`"Ref":"${planId}"`);
    expect(JSON.stringify(post.Resource)).toContain('::/apikeys');
    for (const deleter of ['RevokeToken', 'RemoveMember', 'ChangeMemberRole', 'DeactivateMember'])
      expect(
        of(deleter).flatMap((s) => [].concat(s.Action)),
        deleter,
      ).toEqual(['apigateway:DELETE']);
    expect(apigw).toHaveLength(create.length + of('RevokeToken').length);
    expect(JSON.stringify(apigw)).not.toMatch(/"apigateway:\*"|"Resource":"\*"/);
  });

  it('exposes the plan id for the admin CLI', () => {
    expect(t.toJSON().Outputs.UsagePlanId.Value).toEqual({ Ref: ofType(t, 'AWS::ApiGateway::UsagePlan')[0]![0] });
  });
});

describe('changing the limits', () => {
  it('CDK context overrides the numbers (cdk deploy -c rateLimitPerSecond=…)', () => {
    const t = synth({ rateLimitPerSecond: '50', rateLimitBurst: 100, rateLimitQuotaPerDay: 0 });
    const p = ofType(t, 'AWS::ApiGateway::UsagePlan')[0]![1].Properties;
    expect(p.Throttle).toEqual({ RateLimit: 50, BurstLimit: 100 });
    expect(p.Quota).toBeUndefined();
  }, 120_000); // a whole synth (about 15 s of CPU, the nested stacks included): slow on two shared cores

  it('refuses a value that is not a whole number, or a burst below the rate', () => {
    expect(() => synth({ rateLimitPerSecond: 'ten' })).toThrow(/rateLimitPerSecond must be a whole number/);
    expect(() => rateLimitsFrom((n) => ({ RATE_LIMIT_PER_SECOND: '30', RATE_LIMIT_BURST: '5' })[n], RATE_LIMIT_ENV)).toThrow(/burst/);
    expect(() => rateLimitsFrom((n) => ({ RATE_LIMIT_BURST: '-1' })[n], RATE_LIMIT_ENV)).toThrow(/RATE_LIMIT_BURST/);
    expect(rateLimitsFrom(() => undefined, RATE_LIMIT_ENV)).toEqual(TOKEN_RATE_LIMITS);
  });
});

describe('the local limiter', () => {
  it('allows a burst, then the steady rate, with RateLimit-* headers and Retry-After', () => {
    let now = Date.UTC(2026, 0, 1, 12);
    const l = createRateLimiter({ ratePerSecond: 2, burst: 4, quotaPerDay: 0 }, () => now);
    const first = l.take('tok');
    expect(first).toMatchObject({ allowed: true, headers: { 'RateLimit-Limit': '4', 'RateLimit-Remaining': '3', 'RateLimit-Reset': '1' } });
    for (let i = 0; i < 3; i++) expect(l.take('tok').allowed).toBe(true);
    const refused = l.take('tok');
    expect(refused).toMatchObject({ allowed: false, reason: 'rate', retryAfterSeconds: 1, headers: { 'RateLimit-Remaining': '0' } });
    // Another token has its own bucket.
    expect(l.take('other').allowed).toBe(true);
    now += 500; // half a second refills one request at 2/s
    expect(l.take('tok').allowed).toBe(true);
    expect(l.take('tok').allowed).toBe(false);
  });

  it('counts a daily quota per UTC day and says when it resets', () => {
    let now = Date.UTC(2026, 0, 1, 23, 0, 0);
    const l = createRateLimiter({ ratePerSecond: 100, burst: 100, quotaPerDay: 3 }, () => now);
    for (let i = 0; i < 3; i++) expect(l.take('tok').allowed).toBe(true);
    const over = l.take('tok');
    expect(over).toMatchObject({
      allowed: false,
      reason: 'quota',
      retryAfterSeconds: 3600,
      headers: { 'RateLimit-Limit': '3', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '3600' },
    });
    now = Date.UTC(2026, 0, 2, 0, 0, 1);
    expect(l.take('tok').allowed).toBe(true);
  });

  it('counts the quota across refills of the bucket, and refused requests do not use it', () => {
    let now = Date.UTC(2026, 0, 1, 12);
    const l = createRateLimiter({ ratePerSecond: 5, burst: 10, quotaPerDay: 40 }, () => now);
    let used = 0;
    while (used < 40) {
      // Each round empties the bucket: the rate refuses the 11th, which the quota does not count.
      const round = Array.from({ length: 11 }, () => l.take('tok'));
      expect(round.at(-1)).toMatchObject({ allowed: false, reason: used + 10 < 40 ? 'rate' : 'quota' });
      used += round.filter((d) => d.allowed).length;
      now += 2_100;
    }
    expect(used).toBe(40);
    // 8.4 s past noon: the seconds left until midnight, rounded up.
    expect(l.take('tok')).toMatchObject({ allowed: false, reason: 'quota', retryAfterSeconds: 12 * 3600 - 8 });
  });
});
