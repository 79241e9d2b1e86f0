/**
 * Per-token rate limits on the deployed API (docs/api.md, "Rate limits"), from lib/rate-limits.ts:
 * - one usage plan with the throttle (rate, burst) and the daily quota, on the API's stage;
 * - API key source AUTHORIZER: the TOKEN authorizer returns the token's own API key value as
 *   `usageIdentifierKey`, so API Gateway counts each token against the plan;
 * - every token route requires that key (a method without apiKeyRequired is not metered);
 * - the functions that create and revoke tokens may add keys to this plan and delete keys;
 * - THROTTLED and QUOTA_EXCEEDED answer `{ error, code: "rate_limited" }` with Retry-After.
 * Cookie routes (the console) stay outside the plan; the stage-wide throttle covers them.
 */
import { CfnOutput, Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { DEPLOYED_RETRY_AFTER, RATE_LIMIT_CONTEXT, RATE_LIMITED, rateLimitsFrom, type RateLimits } from '../../lib/rate-limits';
import type { Route } from '../../lib/routes';

/** Handler modules that create a token's API key, and delete it on revoke or when a member's removal, demotion or deactivation revokes the token (lib/auth/usage-keys.ts). */
export const USAGE_KEY_CREATORS = ['create-token'];
export const USAGE_KEY_DELETERS = ['revoke-token', 'remove-member', 'change-member-role', 'deactivate-member'];

export interface TokenRateLimitsProps {
  api: apigateway.RestApi;
  /** Every route's method, the stack's and its nested stacks' (RouteApi.methods). */
  methods: readonly apigateway.Method[];
  routes: readonly Route[];
  /** The function behind each handler module. */
  functions: ReadonlyMap<string, NodejsFunction>;
}

/** A gateway response body is VTL: refuse `$`, `#` and `\` rather than escape them. */
const template = (body: object) => {
  const json = JSON.stringify(body);
  if (/[$#\\]/.test(json)) throw new Error(`Gateway response needs VTL escaping: ${json}`);
  return json;
};

export class TokenRateLimits extends Construct {
  readonly limits: RateLimits;
  readonly plan: apigateway.UsagePlan;

  constructor(scope: Construct, id: string, props: TokenRateLimitsProps) {
    super(scope, id);
    // Context (`cdk deploy -c rateLimitPerSecond=50`) overrides the numbers in lib/rate-limits.ts.
    this.limits = rateLimitsFrom((name) => this.node.tryGetContext(name), RATE_LIMIT_CONTEXT);
    const { api } = props;

    (api.node.defaultChild as apigateway.CfnRestApi).apiKeySourceType = apigateway.ApiKeySourceType.AUTHORIZER;
    this.plan = new apigateway.UsagePlan(this, 'TokenPlan', {
      name: `${Stack.of(this).stackName}-api-tokens`, // USAGE_PLAN_NAME below
      description: 'Per API token: every token has its own API key in this plan',
      throttle: { rateLimit: this.limits.ratePerSecond, burstLimit: this.limits.burst },
      ...(this.limits.quotaPerDay > 0 && { quota: { limit: this.limits.quotaPerDay, period: apigateway.Period.DAY } }),
      apiStages: [{ api, stage: api.deploymentStage }],
    });

    const tokenRoutes = new Set(props.routes.filter((r) => r.auth === 'token').map((r) => `${r.method} ${r.path}`));
    for (const m of props.methods) {
      if (tokenRoutes.has(`${m.httpMethod} ${m.resource.path}`)) (m.node.defaultChild as apigateway.CfnMethod).apiKeyRequired = true;
    }

    // The functions get the plan's name, and their API Gateway rights in a policy of its own: a
    // reference to the plan from the function (its environment, or its default policy, which it
    // depends on) would close a cycle plan -> stage -> deployment -> methods -> function.
    const planName = `${Stack.of(this).stackName}-api-tokens`;
    // Partition and region of the stack (aws, aws-cn, aws-us-gov...): tokens until deploy time.
    const { partition, region } = Stack.of(this);
    const policy = (id: string, modules: string[], statements: iam.PolicyStatement[]) => {
      const roles = modules.map((m) => props.functions.get(m)).filter((f): f is NodejsFunction => !!f);
      for (const fn of roles) fn.addEnvironment('USAGE_PLAN_NAME', planName);
      if (!roles.length) return;
      const created = new iam.Policy(this, id, { roles: roles.map((f) => f.role!), statements });
      // test/unit/nag.test.ts: the key ids are made at run time, one per token.
      Validations.of(created).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/apikeys/*]',
        reason:
          'DeleteApiKey only, on the usage keys the token routes create at run time (one per API token), whose ids cannot be known at deploy time; a tag condition on the keys could narrow it further.',
      });
    };
    policy('CreateKeysPolicy', USAGE_KEY_CREATORS, [
      // GetUsagePlans finds the plan by name; CreateApiKey is POST /apikeys; CreateUsagePlanKey is
      // POST /usageplans/{id}/keys (this plan only); DeleteApiKey rolls back a key the plan refused.
      new iam.PolicyStatement({ actions: ['apigateway:GET'], resources: [`arn:${partition}:apigateway:${region}::/usageplans`] }),
      new iam.PolicyStatement({
        actions: ['apigateway:POST'],
        resources: [
          `arn:${partition}:apigateway:${region}::/apikeys`,
          `arn:${partition}:apigateway:${region}::/usageplans/${this.plan.usagePlanId}/keys`,
        ],
      }),
      new iam.PolicyStatement({ actions: ['apigateway:DELETE'], resources: [`arn:${partition}:apigateway:${region}::/apikeys/*`] }),
    ]);
    // DeleteApiKey is DELETE /apikeys/{id}.
    policy('DeleteKeysPolicy', USAGE_KEY_DELETERS, [
      new iam.PolicyStatement({ actions: ['apigateway:DELETE'], resources: [`arn:${partition}:apigateway:${region}::/apikeys/*`] }),
    ]);

    const headers = (retryAfter: string) => ({
      'Content-Type': "'application/json'",
      'Cache-Control': "'no-store'",
      'Retry-After': `'${retryAfter}'`,
    });
    api.addGatewayResponse('Throttled', {
      type: apigateway.ResponseType.THROTTLED,
      statusCode: String(RATE_LIMITED.throttled.status),
      responseHeaders: headers(DEPLOYED_RETRY_AFTER.throttled),
      templates: { 'application/json': template({ error: RATE_LIMITED.throttled.error, code: RATE_LIMITED.throttled.code }) },
    });
    api.addGatewayResponse('QuotaExceeded', {
      type: apigateway.ResponseType.QUOTA_EXCEEDED,
      statusCode: String(RATE_LIMITED.quota.status),
      responseHeaders: headers(DEPLOYED_RETRY_AFTER.quota),
      templates: { 'application/json': template({ error: RATE_LIMITED.quota.error, code: RATE_LIMITED.quota.code }) },
    });

    new CfnOutput(Stack.of(this), 'UsagePlanId', {
      value: this.plan.usagePlanId,
      description: 'Token usage plan id (its name is <stack>-api-tokens; npm run admin token create needs USAGE_PLAN_NAME)',
    });
  }
}
