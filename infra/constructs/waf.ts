/**
 * A regional web ACL on the API stage (`-c waf=false` leaves it out): AWS's managed common rule
 * set, a rate limit per client address, and one per console session. Cost: docs/deploying.md, "WAF".
 */
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { SESSION_COOKIE } from '../../lib/auth/session';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses';
import { SESSION_RATE_LIMIT_PER_MINUTE } from '../../lib/rate-limits';
import { Concern } from './concern';

/**
 * Requests per client address in any 5-minute window before WAF blocks that address (429) for as
 * long as it stays above. About 7 a second sustained: well above one person or integration (the
 * stage's own throttle is 50 a second for everyone), well below a scripted flood. Console traffic
 * reaches API Gateway through CloudFront, so for it the address is a CloudFront edge's, shared
 * by that edge's users: the limit then caps an edge, not a person.
 */
export const WAF_RATE_LIMIT_PER_5_MIN = 2000;

/**
 * Common rule set rules that only count: API clients (CLIs, SDKs, scripts) often send no
 * User-Agent, and request bodies over 8 KB are legitimate (API Gateway's own limit, 10 MB, and
 * the handlers' checks apply); blocking them would break the API, not protect it.
 */
export const WAF_COUNT_ONLY = ['NoUserAgent_HEADER', 'SizeRestrictions_BODY'];

export interface ApiFirewallProps {
  stage: apigateway.Stage;
}

export class ApiFirewall extends Concern {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'Talent pipeline API: AWS common rule set, a rate limit per client address and one per console session',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('TalentPipelineApi'),
      // The rate limit answers like the stage's throttle: 429 with the same { error } body.
      // (A common-rule-set match gets WAF's own 403: a managed group's rules keep their response.)
      customResponseBodies: {
        TooMany: { contentType: 'APPLICATION_JSON', content: JSON.stringify({ error: GATEWAY_ERRORS.throttled.error }) },
      },
      rules: [
        {
          name: 'RatePerClientAddress',
          priority: 0,
          statement: { rateBasedStatement: { limit: WAF_RATE_LIMIT_PER_5_MIN, evaluationWindowSec: 300, aggregateKeyType: 'IP' } },
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'TooMany' } } },
          visibilityConfig: visibility('RatePerClientAddress'),
        },
        // The console's routes per session, as the usage plan limits each API token: API Gateway
        // meters only API keys, and a member has none. A request without the cookie (token
        // routes, sign-in) is not counted here.
        {
          name: 'RatePerSession',
          priority: 1,
          statement: {
            rateBasedStatement: {
              limit: SESSION_RATE_LIMIT_PER_MINUTE,
              evaluationWindowSec: 60,
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [{ cookie: { name: SESSION_COOKIE, textTransformations: [{ priority: 0, type: 'NONE' }] } }],
            },
          },
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'TooMany' } } },
          visibilityConfig: visibility('RatePerSession'),
        },
        {
          name: 'AwsCommonRuleSet',
          priority: 2,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: WAF_COUNT_ONLY.map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          overrideAction: { none: {} },
          visibilityConfig: visibility('AwsCommonRuleSet'),
        },
      ],
    });
    new wafv2.CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
