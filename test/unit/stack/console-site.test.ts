/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the console and the
 * API on one CloudFront origin: the private bucket, the behaviours, the edge functions, the origin
 * secret, the security headers and the console upload.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { describe, expect, it, vi } from 'vitest';
import { FORWARDED_HOST_HEADER, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../../lib/edge-headers';
import { API_CSP, API_SECURITY_HEADERS, consoleCsp, consoleSecurityHeaders, HSTS_MAX_AGE_SECONDS } from '../../../lib/security-headers';
import { careersCsp } from '../../../lib/careers/page';
import {
  API_PATH_PATTERN,
  BOARDS_PATH_PATTERN,
  CAREERS_PATH_PATTERN,
  HASHED_ASSETS_PREFIX,
  SPA_REWRITE_CODE,
} from '../../../infra/constructs/console-site';
import { BOARD_CACHE_CONTROL, BOARD_EDGE_SECONDS } from '../../../lib/board-headers';
import { SESSION_AUTHORIZER_MODULE, TOKEN_AUTHORIZER_MODULE } from '../../../infra/constructs/route-api';
import {
  appFunctions,
  assetDirByKey,
  CONSOLE_DIR,
  deploymentHandlerIds,
  functionOf,
  getAtts,
  ofType,
  oneGetAtt,
  PIPELINE_MODULES,
  resources,
  ROUTES,
  statementsOf,
  synthTemplate,
  type Json,
} from './fixture';

describe('console and API on one origin', () => {
  /** Routes whose function runs lib/http.ts refuseCrossSite (cookie writes, login included). */
  // As lib/http.ts refuses cross-site writes: a public `cors` line (the application) takes posts from any site.
  // The cookie writes, and the application and its CV upload (their limits count by the viewer's
  // address, which only the origin secret makes believable).
  const ORIGIN_CHECKED = ROUTES.filter(
    (r) =>
      (r.auth !== 'token' && r.method !== 'GET' && !('cors' in r && r.cors) && !('formToken' in r && r.formToken)) ||
      ('formToken' in r && r.formToken === 'check'),
  );
  /** AWS's managed policy ids (CloudFront developer guide), pinned independently of CDK's constants. */
  const CACHING_DISABLED_ID = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
  const ALL_VIEWER_EXCEPT_HOST_HEADER_ID = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

  const one = (type: string, res = resources) => {
    const found = ofType(type, res);
    expect(found, type).toHaveLength(1);
    return found[0]!;
  };
  /** The console's bucket: the one the distribution reads (the stack's other bucket holds uploaded files). */
  const consoleBucket = () => {
    const found = ofType('AWS::S3::Bucket').filter(([, b]) => !JSON.stringify(b.Properties).includes('UnattachedUploads'));
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  const bucketId = () => consoleBucket()[0];
  const distributionId = () => one('AWS::CloudFront::Distribution')[0];
  const config = () => one('AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
  const originOf = (behavior: Json) => config().Origins.find((o: Json) => o.Id === behavior.TargetOriginId);
  const apiBehavior = () => {
    const behaviors = config().CacheBehaviors;
    expect(behaviors.map((b: Json) => b.PathPattern)).toEqual([BOARDS_PATH_PATTERN, API_PATH_PATTERN, CAREERS_PATH_PATTERN]);
    return behaviors[1];
  };
  const boardsBehavior = () => {
    apiBehavior();
    return config().CacheBehaviors[0];
  };
  /** The code of the one CloudFront function a behaviour runs on viewer requests. */
  const viewerRequestCode = (behavior: Json): string => {
    expect(behavior.FunctionAssociations).toHaveLength(1);
    expect(behavior.FunctionAssociations[0].EventType).toBe('viewer-request');
    const fn = resources[oneGetAtt(behavior.FunctionAssociations[0].FunctionARN, 'AWS::CloudFront::Function')]!.Properties;
    expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(fn.AutoPublish).toBe(true);
    // CloudFront Functions: at most 10 KB of code.
    expect(Buffer.byteLength(fn.FunctionCode)).toBeLessThan(10_240);
    return fn.FunctionCode;
  };
  /** Runs CloudFront function code on an event, in a context without Node's globals. */
  const runFunction = (code: string, event: Json): Json =>
    vm.runInNewContext(`${code}\nhandler(event);`, { event: structuredClone(event) }, { timeout: 1000 });
  const viewerEvent = (uri: string, headers: Record<string, string> = {}) => ({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: '203.0.113.7' },
    request: {
      method: 'POST',
      uri,
      querystring: {},
      cookies: {},
      headers: Object.fromEntries(Object.entries({ host: 'd111111abcdef8.cloudfront.net', ...headers }).map(([k, v]) => [k, { value: v }])),
    },
  });
  const withOriginVerify = (res = resources) =>
    appFunctions(res)
      .filter(([, f]) => 'ORIGIN_VERIFY' in f.Properties.Environment.Variables)
      .map(([id, f]) => [id, f.Properties.Environment.Variables.ORIGIN_VERIFY] as const);

  it('the bucket is private: every public access blocked, TLS enforced, S3-managed encryption, no ACLs', () => {
    const p = resources[bucketId()]!.Properties;
    expect(p.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(p.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }]);
    expect(p.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    expect(p.WebsiteConfiguration).toBeUndefined();
    expect(p.AccessControl).toBeUndefined();
  });

  it('only CloudFront, for this distribution, may read the bucket (origin access control), and only over TLS', () => {
    const policies = ofType('AWS::S3::BucketPolicy').filter(([, p]) => p.Properties.Bucket.Ref === bucketId());
    expect(policies).toHaveLength(1);
    const [, policy] = policies[0]!;
    const statements: Json[] = policy.Properties.PolicyDocument.Statement;
    const allows = statements.filter((st) => st.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0].Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(allows[0].Action).toBe('s3:GetObject');
    expect(Object.keys(allows[0].Condition)).toEqual(['StringEquals']);
    const sourceArn = allows[0].Condition.StringEquals['AWS:SourceArn'];
    expect(JSON.stringify(sourceArn)).toContain(':distribution/');
    expect(JSON.stringify(sourceArn)).toContain(JSON.stringify({ Ref: distributionId() }));
    const denials = statements.filter((st) => st.Effect === 'Deny');
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    // The bucket's origin signs with OAC; no legacy origin access identity.
    const origin = originOf(config().DefaultCacheBehavior);
    expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [bucketId(), 'RegionalDomainName'] });
    expect(origin.S3OriginConfig.OriginAccessIdentity).toBe('');
    const oac = resources[oneGetAtt(origin.OriginAccessControlId, 'AWS::CloudFront::OriginAccessControl')]!.Properties;
    expect(oac.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    expect(ofType('AWS::CloudFront::CloudFrontOriginAccessIdentity')).toEqual([]);
  });

  it('the default behaviour serves the bucket over HTTPS (redirect), compressed, GET/HEAD, with the rewrite function', () => {
    const b = config().DefaultCacheBehavior;
    expect(originOf(b).S3OriginConfig).toBeDefined();
    expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(b.Compress).toBe(true);
    expect(b.AllowedMethods).toEqual(['GET', 'HEAD']);
    expect(viewerRequestCode(b)).toBe(SPA_REWRITE_CODE);
    expect(config().DefaultRootObject).toBe('index.html');
  });

  it('has no distribution-wide error responses: the API keeps its own 403s and 404s', () => {
    expect(config().CustomErrorResponses).toBeUndefined();
  });

  it('the rewrite function gives client-side routes the page and leaves files alone', () => {
    const code = viewerRequestCode(config().DefaultCacheBehavior);
    const uriFor = (uri: string) => runFunction(code, viewerEvent(uri)).uri;
    for (const route of ['/settings/tokens', '/', '/webhooks', '/webhooks/wh_123/deliveries', '/members/'])
      expect(uriFor(route), route).toBe('/index.html');
    for (const file of ['/assets/a.js', '/assets/index-abc123.css', '/favicon.svg', '/index.html']) expect(uriFor(file), file).toBe(file);
  });

  it(`${API_PATH_PATTERN} goes to the API stage: all methods, HTTPS only, caching disabled, every viewer header but Host`, () => {
    const b = apiBehavior();
    expect([...b.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(b.ViewerProtocolPolicy).toBe('https-only');
    expect(b.CachePolicyId).toBe(CACHING_DISABLED_ID);
    expect(b.CachePolicyId).toBe(cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(b.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER_ID);
    expect(b.OriginRequestPolicyId).toBe(cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId);
    const origin = originOf(b);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    const apiId = one('AWS::ApiGateway::RestApi')[0];
    const stageId = one('AWS::ApiGateway::Stage')[0];
    expect(JSON.stringify(origin.DomainName)).toContain(JSON.stringify({ Ref: apiId }));
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
    // The stage is the origin path: /api/v1/... reaches /prod/api/v1/..., the route table's paths.
    expect(JSON.stringify(origin.OriginPath)).toContain(JSON.stringify({ Ref: stageId }));
    expect(ROUTES.every((r) => [API_PATH_PATTERN, CAREERS_PATH_PATTERN].some((p) => r.path.startsWith(p.slice(0, -1))))).toBe(true);
  });

  it(`${BOARDS_PATH_PATTERN}, before the API's, is the API behaviour cached for the origin's s-maxage, by path and query alone`, () => {
    const b = boardsBehavior();
    const api = apiBehavior();
    const { CachePolicyId, PathPattern: _p, ...rest } = b;
    const { CachePolicyId: _c, PathPattern: _q, ...apiRest } = api;
    // Same origin, methods, viewer function, headers policy and origin request policy as the API.
    expect(rest).toEqual(apiRest);
    const policy = resources[CachePolicyId.Ref]!.Properties.CachePolicyConfig;
    expect(policy).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: 60 });
    expect(policy.MaxTTL).toBeGreaterThanOrEqual(BOARD_EDGE_SECONDS);
    expect(policy.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({
      QueryStringsConfig: { QueryStringBehavior: 'all' },
      HeadersConfig: { HeaderBehavior: 'none' },
      CookiesConfig: { CookieBehavior: 'none' },
    });
    expect(BOARD_CACHE_CONTROL).toContain(`s-maxage=${BOARD_EDGE_SECONDS}`);
    expect(ROUTES.filter((r) => r.path.startsWith(BOARDS_PATH_PATTERN.slice(0, -1))).every((r) => r.auth === 'none')).toBe(true);
  });

  it(`${CAREERS_PATH_PATTERN} is the boards' behaviour with the careers CSP in place of the API's`, () => {
    const careers = config().CacheBehaviors[2];
    const boards = boardsBehavior();
    const { ResponseHeadersPolicyId, PathPattern: _p, ...rest } = careers;
    const { ResponseHeadersPolicyId: _r, PathPattern: _q, ...boardsRest } = boards;
    expect(rest).toEqual(boardsRest);
    const headers = resources[ResponseHeadersPolicyId.Ref]!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers.ContentSecurityPolicy.Override).toBe(true);
    // The CV step's page posts the file to the files bucket: its origin is a form target, and nothing else.
    const files = ofType('AWS::S3::Bucket').find(([, b]) => JSON.stringify(b.Properties).includes('UnattachedUploads'))!;
    const origin = `https://${flat(files[1].Properties.BucketName)}.s3.<Region>.amazonaws.com`;
    const csp = flat(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toBe(careersCsp(origin));
    expect(csp.split('; ').filter((d) => d.includes(origin))).toEqual([`form-action ${origin} 'self'`]);
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    // Pages to read, and the forms a careers page posts back to its own site: the withdraw link's
    // confirmation and the CV step, whose page would lose its style under the API's CSP.
    expect(
      ROUTES.filter((r) => r.path.startsWith(CAREERS_PATH_PATTERN.slice(0, -1))).every(
        (r) => r.auth === 'none' && (r.method === 'GET' || ['careers-withdraw', 'careers-cv-upload', 'careers-apply'].includes(r.handler)),
      ),
    ).toBe(true);
    // Every page a careers form answers is under the careers behaviour, none under the API's.
    expect(ROUTES.filter((r) => 'html' in r && r.html).every((r) => r.path.startsWith(CAREERS_PATH_PATTERN.slice(0, -1)))).toBe(true);
    expect(ROUTES.some((r) => r.handler === 'careers-cv-upload')).toBe(true);
    expect(ROUTES.some((r) => r.handler === 'careers-apply')).toBe(true);
  });

  it('the API function sets the viewer address and host, overwriting what the browser sent', () => {
    const code = viewerRequestCode(apiBehavior());
    const spoofed = viewerEvent('/api/session', {
      [VIEWER_ADDRESS_HEADER]: '198.51.100.66',
      [FORWARDED_HOST_HEADER]: 'evil.example',
      [ORIGIN_VERIFY_HEADER]: 'a guess',
    });
    const out = runFunction(code, spoofed);
    expect(out.uri).toBe('/api/session');
    expect(out.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '203.0.113.7' });
    expect(out.headers[FORWARDED_HOST_HEADER]).toEqual({ value: 'd111111abcdef8.cloudfront.net' });
    // The origin adds the real secret; a copy from the browser never travels on.
    expect(out.headers[ORIGIN_VERIFY_HEADER]).toBeUndefined();
    expect(out.headers.host).toEqual({ value: 'd111111abcdef8.cloudfront.net' });
    // A repeated header (CloudFront's multiValue) is replaced as a whole.
    const repeated = viewerEvent('/api/tokens');
    repeated.request.headers[VIEWER_ADDRESS_HEADER] = {
      value: '198.51.100.1',
      multiValue: [{ value: '198.51.100.1' }, { value: '198.51.100.2' }],
    } as Json;
    expect(runFunction(code, repeated).headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '203.0.113.7' });
  });

  it('lib/edge.ts believes the function’s headers next to the origin secret, and only then', async () => {
    vi.stubEnv('TABLE_NAME', 'stack-test');
    const edge = await import('../../../lib/edge');
    vi.unstubAllEnvs();
    const forwarded = runFunction(
      viewerRequestCode(apiBehavior()),
      viewerEvent('/api/session', { [VIEWER_ADDRESS_HEADER]: '198.51.100.66' }),
    );
    // What API Gateway hands the function: CloudFront's headers with its own Host, and the edge's IP.
    const headers = Object.fromEntries(Object.entries<Json>(forwarded.headers).map(([k, v]) => [k, v.value as string]));
    const event = (extra: Record<string, string>) => ({
      headers: { ...headers, host: 'abc123.execute-api.eu-west-1.amazonaws.com', ...extra },
      requestContext: { identity: { sourceIp: '130.176.0.1' } },
    });
    const secret = 's3cret-from-secrets-manager';
    expect(edge.clientAddress(event({ [ORIGIN_VERIFY_HEADER]: secret }), secret)).toBe('203.0.113.7');
    expect(edge.siteHosts(event({ [ORIGIN_VERIFY_HEADER]: secret }), secret)).toContain('d111111abcdef8.cloudfront.net');
    expect(edge.clientAddress(event({}), secret)).toBe('130.176.0.1');
    expect(edge.siteHosts(event({ [ORIGIN_VERIFY_HEADER]: 'wrong' }), secret)).not.toContain('d111111abcdef8.cloudfront.net');
  });

  it(`the API origin adds ${ORIGIN_VERIFY_HEADER} from a secret generated at deploy time, never written in the template`, () => {
    const headers = originOf(apiBehavior()).OriginCustomHeaders;
    expect(headers.map((h: Json) => h.HeaderName)).toEqual([ORIGIN_VERIFY_HEADER]);
    // The origin secret, beside the form tokens' key (infra/constructs/form-tokens.ts).
    const [secretId, secret] = one(
      'AWS::SecretsManager::Secret',
      Object.fromEntries(ofType('AWS::SecretsManager::Secret').filter(([id]) => id.startsWith('ConsoleOriginVerify'))),
    );
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32);
    expect(headers[0].HeaderValue).toEqual({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] });
    // The S3 origin gets no secret: it authenticates CloudFront by OAC.
    expect(originOf(config().DefaultCacheBehavior).OriginCustomHeaders).toBeUndefined();
  });

  it('ORIGIN_VERIFY reaches exactly the cookie-write and login functions, with the origin header’s value', () => {
    expect(ORIGIN_CHECKED.map((r) => r.handler)).toContain('login');
    const public_ = ['login', 'apply-to-job', 'create-cv-upload', 'careers-cv-upload', 'careers-apply'];
    expect(ORIGIN_CHECKED.every((r) => r.auth === 'session' || public_.includes(r.handler))).toBe(true);
    const expected = [...new Set(ORIGIN_CHECKED.map((r) => functionOf(r.handler)))].sort();
    expect(expected.length).toBeGreaterThan(1);
    const got = withOriginVerify();
    expect(got.map(([id]) => id).sort()).toEqual(expected);
    const headerValue = originOf(apiBehavior()).OriginCustomHeaders[0].HeaderValue;
    for (const [id, value] of got) expect(value, id).toEqual(headerValue);
    // Not the token routes, GET-only modules, the authorizers or the webhook pipeline.
    const readOnly = ROUTES.filter((r) => r.method === 'GET' && !ORIGIN_CHECKED.some((w) => w.handler === r.handler));
    const tokenOnly = ROUTES.filter((r) => r.auth === 'token' && !ORIGIN_CHECKED.some((w) => w.handler === r.handler));
    expect(readOnly.length).toBeGreaterThan(0);
    expect(tokenOnly.length).toBeGreaterThan(0);
    for (const module of [
      TOKEN_AUTHORIZER_MODULE,
      SESSION_AUTHORIZER_MODULE,
      ...PIPELINE_MODULES,
      ...[...readOnly, ...tokenOnly].map((r) => r.handler),
    ]) {
      expect(expected, module).not.toContain(functionOf(module));
    }
    // And no function reads the removed SITE_ORIGINS any more.
    for (const [id, f] of appFunctions()) expect(Object.keys(f.Properties.Environment.Variables), id).not.toContain('SITE_ORIGINS');
  });

  /** A template string as text: Fn::Join flattened, pseudo parameters as <Name>. */
  const flat = (v: Json): string =>
    typeof v === 'string'
      ? v
      : v.Ref
        ? `<${String(v.Ref).replace('AWS::', '')}>`
        : v['Fn::Join']
          ? v['Fn::Join'][1].map(flat).join(v['Fn::Join'][0])
          : JSON.stringify(v);

  it("the console's CSP admits the files bucket's origin for uploads and images, and nothing else of it", () => {
    const files = ofType('AWS::S3::Bucket').find(([, b]) => JSON.stringify(b.Properties).includes('UnattachedUploads'))!;
    const origin = `https://${flat(files[1].Properties.BucketName)}.s3.<Region>.amazonaws.com`;
    expect(origin).toMatch(/^https:\/\/talent-pipeline-files-\w+-<AccountId>-<Region>\.s3\.<Region>\.amazonaws\.com$/);
    const id = config().DefaultCacheBehavior.ResponseHeadersPolicyId.Ref;
    const csp = flat(
      resources[id]!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy,
    );
    expect(csp).toBe(consoleCsp(origin));
    const directives = csp.split('; ').filter((d) => d.includes(origin));
    expect(directives.map((d) => d.split(' ')[0]).sort()).toEqual(['connect-src', 'img-src']);
  });

  it('the console and API behaviours send lib/security-headers.ts, overriding the origin', () => {
    const CONSOLE_SECURITY_HEADERS = consoleSecurityHeaders('https://files.example');
    const policyOf = (behavior: Json) => {
      const id = behavior.ResponseHeadersPolicyId.Ref;
      expect(resources[id]!.Type).toBe('AWS::CloudFront::ResponseHeadersPolicy');
      return resources[id]!.Properties.ResponseHeadersPolicyConfig;
    };
    const cases = [
      [config().DefaultCacheBehavior, CONSOLE_SECURITY_HEADERS, undefined],
      [apiBehavior(), API_SECURITY_HEADERS, API_CSP],
    ] as const;
    expect(policyOf(cases[0][0])).not.toEqual(policyOf(cases[1][0]));
    for (const [behavior, headers, csp] of cases) {
      const policy = policyOf(behavior);
      expect(Object.keys(policy).sort()).toEqual(['Comment', 'Name', 'SecurityHeadersConfig']);
      const h = policy.SecurityHeadersConfig;
      expect(Object.keys(h).sort()).toEqual([
        'ContentSecurityPolicy',
        'ContentTypeOptions',
        'FrameOptions',
        'ReferrerPolicy',
        'StrictTransportSecurity',
      ]);
      // The console's policy names the files bucket (pinned by the test above).
      if (csp) {
        expect(h.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: csp, Override: true });
        expect(headers['Content-Security-Policy']).toBe(csp);
      } else expect(h.ContentSecurityPolicy.Override).toBe(true);
      expect(h.ContentTypeOptions).toEqual({ Override: true });
      expect(headers['X-Content-Type-Options']).toBe('nosniff');
      expect(h.FrameOptions).toEqual({ FrameOption: headers['X-Frame-Options'], Override: true });
      expect(h.FrameOptions.FrameOption).toBe('DENY');
      expect(h.ReferrerPolicy).toEqual({ ReferrerPolicy: headers['Referrer-Policy'], Override: true });
      expect(h.ReferrerPolicy.ReferrerPolicy).toBe('no-referrer');
      expect(h.StrictTransportSecurity).toEqual({ AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS, IncludeSubdomains: true, Override: true });
      // What a browser receives is the header lib/security-headers.ts sends locally.
      const hsts = `max-age=${h.StrictTransportSecurity.AccessControlMaxAgeSec}${h.StrictTransportSecurity.IncludeSubdomains ? '; includeSubDomains' : ''}`;
      expect(hsts).toBe(headers['Strict-Transport-Security']);
    }
  });

  it('BucketDeployment uploads the built console: hashed assets (immutable) first, then the page (no-cache), invalidating /index.html', () => {
    const deployments = ofType('Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    const assets = deployments.find(([, d]) => JSON.stringify(d.Properties.Include) === JSON.stringify([`${HASHED_ASSETS_PREFIX}*`]))!;
    const page = deployments.find(([id]) => id !== assets?.[0])!;
    expect(assets).toBeDefined();
    for (const [id, d] of deployments) {
      expect(d.Properties.DestinationBucketName, id).toEqual({ Ref: bucketId() });
      expect(d.Properties.Prune, id).toBe(false);
      // The uploaded zip is the console directory handed to the stack.
      expect(d.Properties.SourceObjectKeys, id).toHaveLength(1);
      const dir = assetDirByKey.get(d.Properties.SourceObjectKeys[0]);
      expect(dir, id).toBeDefined();
      expect(readFileSync(path.join(dir!, 'index.html'), 'utf8')).toBe(readFileSync(path.join(CONSOLE_DIR, 'index.html'), 'utf8'));
    }
    expect(assets[1].Properties.Exclude).toEqual(['*']);
    expect(assets[1].Properties.SystemMetadata['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(assets[1].Properties.DistributionId).toBeUndefined();
    expect(page[1].Properties.Exclude).toEqual([`${HASHED_ASSETS_PREFIX}*`]);
    expect(page[1].Properties.Include).toBeUndefined();
    expect(page[1].Properties.SystemMetadata['cache-control']).toBe('no-cache');
    expect(page[1].Properties.DistributionId).toEqual({ Ref: distributionId() });
    expect(page[1].Properties.DistributionPaths).toEqual(['/index.html']);
    expect(page[1].DependsOn ?? []).toContain(assets[0]);
  });

  it('the deployment function writes only the console bucket, reads only the asset bucket, and logs with a retention', () => {
    const ids = deploymentHandlerIds();
    expect(ids).toHaveLength(1);
    const fn = resources[ids[0]!]!.Properties;
    expect(resources[fn.LoggingConfig.LogGroup.Ref]!.Properties.RetentionInDays).toBe(30);
    expect(fn.Environment?.Variables ?? {}).not.toHaveProperty('ORIGIN_VERIFY');
    for (const st of statementsOf(ids[0]!)) {
      const actions: string[] = [st.Action].flat();
      if (actions.some((a) => a.startsWith('cloudfront:'))) {
        // CreateInvalidation has no narrower resource CDK can name here.
        expect(actions.sort()).toEqual(['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation']);
        continue;
      }
      for (const a of actions) expect(a).toMatch(/^s3:/);
      const writes = actions.filter((a) => /^s3:(Put|Delete|Abort)/.test(a));
      const targets = [st.Resource].flat();
      if (writes.length) for (const t of targets) expect(getAtts(t)).toEqual([bucketId()]);
      else for (const t of targets) expect(JSON.stringify(t)).toMatch(/cdk-[a-z0-9]+-assets-/);
    }
  });

  it('a missing console is refused with the command that builds it', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'stack-test-noconsole-'));
    try {
      expect(() => synthTemplate({ consoleDir: empty })).toThrow(/npm run build:console/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
