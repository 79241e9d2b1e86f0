/** The web ACL on the API stage (infra/constructs/waf.ts), on by default. Template synthesis only. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../lib/auth/session';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { SESSION_RATE_LIMIT_PER_MINUTE, SESSION_RATE_LIMITS } from '../../lib/rate-limits';
import { TalentPipelineStack } from '../../infra/stack';
import { flattenedTemplate } from '../helpers/stack-templates';
import { WAF_COUNT_ONLY, WAF_RATE_LIMIT_PER_5_MIN } from '../../infra/constructs/waf';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const CONSOLE_DIR = mkdtempSync(path.join(tmpdir(), 'waf-test-console-'));
mkdirSync(path.join(CONSOLE_DIR, 'assets'));
writeFileSync(path.join(CONSOLE_DIR, 'index.html'), '<!doctype html>');
const dirs: string[] = [];

afterAll(() => {
  for (const d of [...dirs, CONSOLE_DIR]) rmSync(d, { recursive: true, force: true });
});

function synth(waf?: boolean): Record<string, { Type: string; Properties: Json }> {
  const outdir = mkdtempSync(path.join(tmpdir(), 'waf-test-'));
  dirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new TalentPipelineStack(app, 'TalentPipeline', { consoleDir: CONSOLE_DIR, waf });
  return flattenedTemplate(app.synth({ validateOnSynthesis: false }).directory, stack.artifactId).Resources;
}

const ofType = (res: Record<string, { Type: string; Properties: Json }>, type: string) =>
  Object.entries(res).filter(([, r]) => r.Type === type);

describe('WAF on the API stage', () => {
  it('by default a regional web ACL guards the stage: a rate limit per address, one per console session, then the common rule set', () => {
    const res = synth();
    const acls = ofType(res, 'AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(1);
    const [aclId, acl] = acls[0]!;
    expect(acl.Properties.Scope).toBe('REGIONAL');
    expect(acl.Properties.DefaultAction).toEqual({ Allow: {} });
    const [rate, perSession, common] = acl.Properties.Rules;
    expect(rate.Statement.RateBasedStatement).toEqual({
      Limit: WAF_RATE_LIMIT_PER_5_MIN,
      EvaluationWindowSec: 300,
      AggregateKeyType: 'IP',
    });
    expect(rate.Action.Block.CustomResponse.ResponseCode).toBe(429);
    const body = acl.Properties.CustomResponseBodies[rate.Action.Block.CustomResponse.CustomResponseBodyKey];
    expect(JSON.parse(body.Content)).toEqual({ error: GATEWAY_ERRORS.throttled.error });
    // The console's routes per session cookie, as the usage plan limits each API token.
    expect(perSession.Statement.RateBasedStatement).toEqual({
      Limit: SESSION_RATE_LIMIT_PER_MINUTE,
      EvaluationWindowSec: 60,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [{ Cookie: { Name: SESSION_COOKIE, TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }],
    });
    expect(SESSION_RATE_LIMIT_PER_MINUTE).toBe(SESSION_RATE_LIMITS.ratePerSecond * 60);
    expect(perSession.Action).toEqual(rate.Action);
    expect(acl.Properties.Rules.map((r: Json) => r.Priority)).toEqual([0, 1, 2]);
    expect(common.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' });
    expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides.map((o: Json) => o.Name)).toEqual(WAF_COUNT_ONLY);
    for (const o of common.Statement.ManagedRuleGroupStatement.RuleActionOverrides) expect(o.ActionToUse).toEqual({ Count: {} });
    expect(common.OverrideAction).toEqual({ None: {} });
    for (const rule of acl.Properties.Rules) expect(rule.VisibilityConfig.CloudWatchMetricsEnabled).toBe(true);

    const [[, association]] = ofType(res, 'AWS::WAFv2::WebACLAssociation') as [[string, Json]];
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    const [[stageId]] = ofType(res, 'AWS::ApiGateway::Stage') as [[string, Json]];
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(JSON.stringify({ Ref: stageId }));
  }, 120_000); // a synth: slow on two shared cores

  it('waf: false leaves both out', () => {
    const res = synth(false);
    expect(ofType(res, 'AWS::WAFv2::WebACL')).toEqual([]);
    expect(ofType(res, 'AWS::WAFv2::WebACLAssociation')).toEqual([]);
  }, 120_000);
});
