/**
 * What a blank AWS account refuses in a deploy: the services' published hard limits and known
 * refusals, each as a check over the synthesized templates of a stack and its nested stacks that
 * returns the violations it finds (none: the deploy passes that limit). Each names the AWS
 * documentation page that states the limit. test/unit/deploy-limits.test.ts runs them on the
 * shared synth, and on broken copies to show each one is live.
 *
 * Sizes counted on deploy-time values (policy and environment sizes) count each reference at an
 * upper bound of what it resolves to (deployedLength), never at the length of its JSON.
 */
import type { StackTemplate } from './stack-templates';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
export type Resources = Record<string, { Type: string; Properties: Json; DependsOn?: string | string[] }>;

export interface Deployed {
  /** Each template as CloudFormation receives it: the stack's first, then its nested stacks'. */
  stacks: StackTemplate[];
  /** The same as one template (stack-templates.ts flattenedTemplate): references across stacks resolved. */
  flat: Resources;
}

export interface Limit {
  name: string;
  /** The AWS documentation page that states it. */
  source: string;
  check(d: Deployed): string[];
}

/** A fifth of CloudFormation's 500 kept free, for the routes and functions still to come. */
export const RESOURCE_GOAL = 400;

export const stackLabel = (s: StackTemplate) => (s.parent ? s.name.replace(/NestedStack.*$/, '') : s.name);
export const resourcesOf = (s: StackTemplate): Resources => s.template.Resources ?? {};
export const ofType = (res: Resources, type: string) => Object.entries(res).filter(([, r]) => r.Type === type);
const dependsOn = (r: { DependsOn?: string | string[] }) => [r.DependsOn ?? []].flat();

/**
 * The most a pseudo parameter resolves to: the longest partition, region and URL suffix AWS has,
 * and CloudFormation's 128-character stack names (`AWS::StackId` wraps one in an ARN).
 */
const PSEUDO_MAX: Record<string, number> = {
  'AWS::Partition': 'aws-us-gov'.length,
  'AWS::Region': 'ap-southeast-5'.length,
  'AWS::AccountId': 12,
  'AWS::URLSuffix': 'amazonaws.com.cn'.length,
  'AWS::StackName': 128,
  'AWS::StackId': 128 + 100,
  'AWS::NoValue': 0,
};
/**
 * Any other reference (a name, an ARN, a queue URL): CloudFormation's generated names are at most
 * 255 characters, and an ARN wraps one in under 100 more.
 */
const REFERENCE_MAX = 356;

/** An upper bound of a value's length once CloudFormation has resolved it. */
export function deployedLength(value: Json): number {
  // A dynamic reference resolves to the secret: the origin secret is 64 characters.
  if (typeof value === 'string') return value.replace(/\{\{resolve:[^}]*\}\}/g, 'x'.repeat(64)).length;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + deployedLength(v), 0);
  if (value && typeof value === 'object') {
    const [fn, arg] = Object.entries(value)[0] as [string, Json];
    if (fn === 'Ref') return PSEUDO_MAX[arg] ?? REFERENCE_MAX;
    if (fn === 'Fn::Join') {
      const [sep, parts] = arg as [string, Json[]];
      return parts.reduce((n: number, p) => n + deployedLength(p), 0) + sep.length * Math.max(parts.length - 1, 0);
    }
    if (fn === 'Fn::Sub') {
      const text: string = Array.isArray(arg) ? arg[0] : arg;
      return text.replace(/\$\{([^}]*)\}/g, (_, name: string) => 'x'.repeat(PSEUDO_MAX[name] ?? REFERENCE_MAX)).length;
    }
    return REFERENCE_MAX; // Fn::GetAtt, Fn::ImportValue, Fn::Select...
  }
  return 0;
}

/** A JSON value with every intrinsic replaced by a string of its deployedLength: its deployed shape. */
function deployed(value: Json): Json {
  if (Array.isArray(value)) return value.map(deployed);
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === 'Ref' || keys[0]!.startsWith('Fn::'))) return 'x'.repeat(deployedLength(value));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deployed(v)]));
  }
  if (typeof value === 'string') return 'x'.repeat(deployedLength(value));
  return value;
}

/** IAM counts a policy's characters without white space; JSON.stringify writes none. */
const policySize = (document: Json) => JSON.stringify(deployed(document)).length;

/** Logical ids that a `Ref` or `Fn::GetAtt` anywhere inside a value names. */
export function referenced(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(referenced);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => {
      if (k === 'Ref' && typeof v === 'string') return [v];
      if (k === 'Fn::GetAtt') return [Array.isArray(v) ? String(v[0]) : String(v).split('.')[0]!];
      return referenced(v);
    });
  }
  return [];
}

/** One violation per item over `max`. */
const over = (items: Array<[what: string, n: number]>, max: number, unit = '') =>
  items.filter(([, n]) => n > max).map(([what, n]) => `${what}: ${n}${unit} (at most ${max}${unit})`);

const CFN = 'Understand CloudFormation quotas';
const IAM = 'IAM and AWS STS quotas';
const LAMBDA = 'Lambda quotas';
const APIGW = 'Quotas for configuring and running a REST API in API Gateway';

/** Actions that have no resource-level permissions, so `Resource: "*"` is their only form. */
const RESOURCELESS = new Set([
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'dynamodb:ListStreams',
  'cloudfront:CreateInvalidation',
  'cloudfront:GetInvalidation',
]);

export const LIMITS: Limit[] = [
  // ---- CloudFormation ----
  {
    name: `resources per stack: the goal of ${RESOURCE_GOAL} (CloudFormation refuses more than 500)`,
    source: CFN,
    check: ({ stacks }) =>
      over(
        stacks.map((s) => [stackLabel(s), Object.keys(resourcesOf(s)).length]),
        RESOURCE_GOAL,
      ),
  },
  {
    name: 'outputs, parameters and mappings per stack: 200 each, and 200 attributes per mapping',
    source: CFN,
    check: ({ stacks }) =>
      stacks.flatMap((s) => {
        const mappings = Object.entries<Json>(s.template.Mappings ?? {});
        return over(
          [
            [`${stackLabel(s)} outputs`, Object.keys(s.template.Outputs ?? {}).length],
            [`${stackLabel(s)} parameters`, Object.keys(s.template.Parameters ?? {}).length],
            [`${stackLabel(s)} mappings`, mappings.length],
            ...mappings.map(([name, m]): [string, number] => [`${stackLabel(s)} mapping ${name}`, Object.keys(m).length]),
          ],
          200,
        );
      }),
  },
  {
    // cdk deploy uploads a template over 51,200 bytes (the most a request may carry inline) to the
    // bootstrap bucket, and nested stack templates always go there: hence `cdk bootstrap` first.
    name: 'template size: 1 MB read from S3',
    source: CFN,
    check: ({ stacks }) =>
      over(
        stacks.map((s) => [stackLabel(s), s.bytes]),
        1_000_000,
        ' bytes',
      ),
  },
  {
    name: 'logical ids, output and parameter names: alphanumeric, at most 255 characters',
    source: CFN,
    check: ({ stacks }) =>
      stacks.flatMap((s) =>
        (['Resources', 'Outputs', 'Parameters'] as const).flatMap((section) =>
          Object.keys(s.template[section] ?? {})
            .filter((id) => !/^[A-Za-z0-9]{1,255}$/.test(id))
            .map((id) => `${stackLabel(s)} ${section}: ${id}`),
        ),
      ),
  },
  {
    name: 'every reference names a resource or parameter of its own template',
    source: 'Fn::GetAtt and Ref (CloudFormation template reference)',
    check: ({ stacks }) =>
      stacks.flatMap((s) => {
        const known = new Set([...Object.keys(resourcesOf(s)), ...Object.keys(s.template.Parameters ?? {}), ...Object.keys(PSEUDO_MAX)]);
        const from = [
          ...Object.entries(resourcesOf(s)).map(([id, r]): [string, string[]] => [id, [...referenced(r), ...dependsOn(r)]]),
          ...Object.entries<Json>(s.template.Outputs ?? {}).map(([name, o]): [string, string[]] => [`output ${name}`, referenced(o.Value)]),
        ];
        return from.flatMap(([id, targets]) => targets.filter((t) => !known.has(t)).map((t) => `${stackLabel(s)} ${id} -> ${t}`));
      }),
  },
  {
    // An export another stack imports can neither change nor go away ("cannot be deleted as it is
    // in use"); a nested stack's parameters change in the same deploy as its parent.
    name: 'no exports or imports across stacks: nested stacks take parameters instead',
    source: 'Get exported outputs from a deployed CloudFormation stack',
    check: ({ stacks }) =>
      stacks.flatMap((s) => [
        ...Object.entries<Json>(s.template.Outputs ?? {})
          .filter(([, o]) => o.Export)
          .map(([name]) => `${stackLabel(s)} exports ${name}`),
        ...(JSON.stringify(s.template).includes('Fn::ImportValue') ? [`${stackLabel(s)} imports a value`] : []),
      ]),
  },
  {
    name: 'nested stacks one level deep, each with its template',
    source: 'Nested stacks (CloudFormation User Guide)',
    check: ({ stacks }) => [
      ...stacks.filter((s) => s.parent && s.parent !== stacks[0]!.name).map((s) => `${stackLabel(s)} is nested in ${s.parent}`),
      ...(ofType(resourcesOf(stacks[0]!), 'AWS::CloudFormation::Stack').length === stacks.length - 1
        ? []
        : ['a nested stack has no template']),
    ],
  },
  // ---- IAM ----
  {
    name: "a role's inline policies: 10,240 characters together",
    source: IAM,
    check: ({ flat }) =>
      over(
        ofType(flat, 'AWS::IAM::Role').map(([roleId, role]): [string, number] => [
          roleId,
          (role.Properties.Policies ?? []).reduce((n: number, p: Json) => n + policySize(p.PolicyDocument), 0) +
            ofType(flat, 'AWS::IAM::Policy')
              .filter(([, p]) => referenced(p.Properties.Roles).includes(roleId))
              .reduce((n, [, p]) => n + policySize(p.Properties.PolicyDocument), 0),
        ]),
        10_240,
        ' characters',
      ),
  },
  {
    name: 'a managed policy: 6,144 characters; managed policies per role: 10',
    source: IAM,
    check: ({ flat }) => [
      ...over(
        ofType(flat, 'AWS::IAM::ManagedPolicy').map(([id, p]): [string, number] => [id, policySize(p.Properties.PolicyDocument)]),
        6_144,
        ' characters',
      ),
      ...over(
        ofType(flat, 'AWS::IAM::Role').map(([id, r]): [string, number] => [id, (r.Properties.ManagedPolicyArns ?? []).length]),
        10,
      ),
    ],
  },
  {
    name: 'no wildcard actions; Resource "*" only for actions without resource-level permissions',
    source: 'Security best practices in IAM (grant least privilege)',
    check: ({ flat }) =>
      [...ofType(flat, 'AWS::IAM::Policy'), ...ofType(flat, 'AWS::IAM::ManagedPolicy')].flatMap(([id, p]) =>
        [p.Properties.PolicyDocument.Statement].flat().flatMap((st: Json) => {
          const actions: string[] = [st.Action].flat();
          const anyResource = st.Effect === 'Allow' && [st.Resource].flat().includes('*');
          return actions.flatMap((a) => [
            ...(/^\*$|^[a-z0-9-]+:\*$/.test(a) ? [`${id}: action ${a}`] : []),
            ...(anyResource && !RESOURCELESS.has(a) ? [`${id}: ${a} on "*"`] : []),
          ]);
        }),
      ),
  },
  // ---- Lambda ----
  {
    name: 'environment variables: 4 KB per function',
    source: LAMBDA,
    check: ({ flat }) =>
      over(
        ofType(flat, 'AWS::Lambda::Function').map(([id, fn]): [string, number] => [
          id,
          Object.entries<Json>(fn.Properties.Environment?.Variables ?? {}).reduce((n, [k, v]) => n + k.length + deployedLength(v), 0),
        ]),
        4_096,
        ' bytes',
      ),
  },
  {
    // Lambda keeps 100 of the account's concurrency unreserved, and a new account's quota is 10:
    // there any reservation is refused.
    name: 'no reserved or provisioned concurrency',
    source: 'Configuring reserved concurrency for a function',
    check: ({ flat }) => [
      ...ofType(flat, 'AWS::Lambda::Function')
        .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined)
        .map(([id]) => `${id} reserves concurrency`),
      ...[...ofType(flat, 'AWS::Lambda::Alias'), ...ofType(flat, 'AWS::Lambda::Version')]
        .filter(([, r]) => r.Properties.ProvisionedConcurrencyConfig !== undefined)
        .map(([id]) => `${id} provisions concurrency`),
    ],
  },
  {
    name: "a function's resource-based policy (its invoke permissions): 20 KB",
    source: LAMBDA,
    check: ({ flat }) => {
      const perFunction = new Map<string, number>();
      for (const [, p] of ofType(flat, 'AWS::Lambda::Permission')) {
        const fn = referenced(p.Properties.FunctionName)[0] ?? JSON.stringify(p.Properties.FunctionName);
        // The statement Lambda writes: its id, effect, principal, action, resource and condition.
        const statement = { Sid: 'x'.repeat(100), Effect: 'Allow', Principal: { Service: p.Properties.Principal }, ...p.Properties };
        perFunction.set(fn, (perFunction.get(fn) ?? 0) + JSON.stringify(deployed(statement)).length);
      }
      return over([...perFunction], 20_480, ' bytes');
    },
  },
  {
    name: 'filters per event source mapping: 5, the default quota',
    source: 'Control which events Lambda sends to your function',
    check: ({ flat }) =>
      over(
        ofType(flat, 'AWS::Lambda::EventSourceMapping').map(([id, m]): [string, number] => [
          id,
          (m.Properties.FilterCriteria?.Filters ?? []).length,
        ]),
        5,
      ),
  },
  {
    // Lambda refuses the mapping when the function may run longer than the queue hides a message;
    // and a batch of more than 10 without a batching window.
    name: "an SQS source queue's visibility timeout: at least the function's timeout; a batch over 10 needs a batching window",
    source: 'Creating and configuring an Amazon SQS event source mapping',
    check: ({ flat }) =>
      ofType(flat, 'AWS::Lambda::EventSourceMapping').flatMap(([id, m]) => {
        const queue = flat[referenced(m.Properties.EventSourceArn)[0] ?? ''];
        if (queue?.Type !== 'AWS::SQS::Queue') return [];
        const fn = flat[referenced(m.Properties.FunctionName)[0] ?? '']!;
        // SQS's default visibility timeout is 30 s, Lambda's default function timeout 3 s.
        const visibility = queue.Properties.VisibilityTimeout ?? 30;
        const timeout = fn.Properties.Timeout ?? 3;
        return [
          ...(visibility < timeout ? [`${id}: the queue hides a message ${visibility} s, the function may run ${timeout} s`] : []),
          ...((m.Properties.BatchSize ?? 10) > 10 && !(m.Properties.MaximumBatchingWindowInSeconds >= 1)
            ? [`${id}: batch of ${m.Properties.BatchSize} without a batching window`]
            : []),
        ];
      }),
  },
  {
    // More than two processes reading one shard of a stream are throttled.
    name: 'readers of the table stream: 2',
    source: 'Change data capture for DynamoDB Streams',
    check: ({ flat }) =>
      over(
        [
          [
            'table stream readers',
            ofType(flat, 'AWS::Lambda::EventSourceMapping').filter(([, m]) =>
              JSON.stringify(m.Properties.EventSourceArn).includes('StreamArn'),
            ).length,
          ],
        ],
        2,
      ),
  },
  // ---- API Gateway ----
  {
    name: 'resources (the root included), authorizers and stages per REST API: 300, 10 and 10',
    source: APIGW,
    check: ({ flat }) =>
      ofType(flat, 'AWS::ApiGateway::RestApi').flatMap(([apiId]) => {
        const of = (type: string) => ofType(flat, type).filter(([, r]) => referenced(r.Properties.RestApiId).includes(apiId)).length;
        return [
          ...over([[`${apiId} resources`, of('AWS::ApiGateway::Resource') + 1]], 300),
          ...over([[`${apiId} authorizers`, of('AWS::ApiGateway::Authorizer')]], 10),
          ...over([[`${apiId} stages`, of('AWS::ApiGateway::Stage')]], 10),
        ];
      }),
  },
  {
    // Without it a blank account refuses the stage: "CloudWatch Logs role ARN must be set in
    // account settings to enable logging".
    name: "a stage that logs waits for the account's CloudWatch role (AWS::ApiGateway::Account)",
    source: 'Set up CloudWatch logging for REST APIs in API Gateway',
    check: ({ flat }) =>
      ofType(flat, 'AWS::ApiGateway::Stage')
        .filter(
          ([, s]) =>
            s.Properties.AccessLogSetting ||
            (s.Properties.MethodSettings ?? []).some((m: Json) => (m.LoggingLevel && m.LoggingLevel !== 'OFF') || m.DataTraceEnabled),
        )
        .flatMap(([stageId, stage]) => {
          const account = ofType(flat, 'AWS::ApiGateway::Account').find(([accountId]) => dependsOn(stage).includes(accountId));
          if (!account) return [`${stageId} logs but does not wait for an AWS::ApiGateway::Account`];
          const role = flat[referenced(account[1].Properties.CloudWatchRoleArn)[0] ?? ''];
          return role?.Type === 'AWS::IAM::Role' &&
            JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes('apigateway.amazonaws.com')
            ? []
            : [`${account[0]} has no role API Gateway may assume`];
        }),
  },
  // ---- WAF ----
  {
    // The stacks are region-agnostic (infra/app.ts): none may assume us-east-1, where alone a
    // CLOUDFRONT web ACL can be made.
    name: 'web ACLs are REGIONAL and guard an API Gateway stage',
    source: 'AWS WAF Developer Guide: resources you can protect',
    check: ({ flat }) => [
      ...ofType(flat, 'AWS::WAFv2::WebACL')
        .filter(([, acl]) => acl.Properties.Scope !== 'REGIONAL')
        .map(([id, acl]) => `${id} has scope ${acl.Properties.Scope}`),
      ...ofType(flat, 'AWS::WAFv2::WebACLAssociation')
        .filter(([, a]) => !referenced(a.Properties.ResourceArn).some((r) => flat[r]?.Type === 'AWS::ApiGateway::Stage'))
        .map(([id]) => `${id} guards no API Gateway stage`),
    ],
  },
  // ---- CloudWatch and EventBridge ----
  {
    name: 'actions per alarm state: 5',
    source: 'CloudWatch service quotas',
    check: ({ flat }) =>
      ofType(flat, 'AWS::CloudWatch::Alarm').flatMap(([id, a]) =>
        over(
          ['AlarmActions', 'OKActions', 'InsufficientDataActions'].map((k): [string, number] => [
            `${id} ${k}`,
            (a.Properties[k] ?? []).length,
          ]),
          5,
        ),
      ),
  },
  {
    name: 'targets per rule: 5',
    source: 'Amazon EventBridge quotas',
    check: ({ flat }) =>
      over(
        ofType(flat, 'AWS::Events::Rule').map(([id, r]): [string, number] => [id, (r.Properties.Targets ?? []).length]),
        5,
      ),
  },
];
