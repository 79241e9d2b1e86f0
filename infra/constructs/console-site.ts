/**
 * The deployed console and the API on one origin (docs/deploying.md, "What runs where"): a private
 * S3 bucket behind CloudFront (origin access control) for the page, and `/api/*` routed to the
 * REST API. Same origin, so the `__Host-` session cookie and lib/http.ts's same-origin CSRF rule
 * work unchanged and no CORS is needed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Duration, Stack, Validations, type CfnElement, type RemovalPolicy } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { FORWARDED_HOST_HEADER, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/edge-headers';
import { careersCsp } from '../../lib/careers/page';
import {
  API_SECURITY_HEADERS,
  type CONSOLE_SECURITY_HEADERS,
  consoleSecurityHeaders,
  HSTS_MAX_AGE_SECONDS,
} from '../../lib/security-headers';

/** The behaviour that sends requests to API Gateway; every route of lib/routes.ts is under it. */
export const API_PATH_PATTERN = '/api/*';
/**
 * The public job boards (lib/api/boards.ts), cached at the edge: first, so it wins over API_PATH_PATTERN.
 * The applications posted under it pass through uncached (CloudFront caches GET and HEAD only).
 */
export const BOARDS_PATH_PATTERN = '/api/boards/*';
/**
 * The careers pages (lib/api/careers.ts) and their CV step: HTML from the same API, cached as the
 * boards are (CloudFront caches no POST), with the careers CSP (a style hash, https images, forms
 * to this origin and the files bucket) in place of the API's.
 */
export const CAREERS_PATH_PATTERN = '/careers/*';
/** Vite puts content-hashed files here; everything else (index.html, favicon) keeps its name. */
export const HASHED_ASSETS_PREFIX = 'assets/';

/**
 * Viewer-request function of the default behaviour: a path whose last segment has no file
 * extension is a client-side route and gets the page (the rule dev/console-files.ts
 * follows). Not an error response: that would also turn the API's 403s and 404s into the page.
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/**
 * Viewer-request function of the API behaviour: what lib/edge.ts needs to know about the browser,
 * overwriting whatever the browser itself sent under these names. The origin secret is added by
 * the origin (custom header); a copy sent by the browser is dropped here as well.
 */
export const API_VIEWER_HEADERS_CODE = `function handler(event) {
  var request = event.request;
  var headers = request.headers;
  headers[${JSON.stringify(VIEWER_ADDRESS_HEADER)}] = { value: event.viewer.ip };
  if (headers.host) headers[${JSON.stringify(FORWARDED_HOST_HEADER)}] = { value: headers.host.value };
  else delete headers[${JSON.stringify(FORWARDED_HOST_HEADER)}];
  delete headers[${JSON.stringify(ORIGIN_VERIFY_HEADER)}];
  return request;
}`;

type SecurityHeaders = typeof CONSOLE_SECURITY_HEADERS | typeof API_SECURITY_HEADERS;

/** A CloudFront response headers policy with exactly the values lib/security-headers.ts defines. */
function securityHeadersPolicy(scope: Construct, id: string, headers: SecurityHeaders, comment: string) {
  const hsts = headers['Strict-Transport-Security'];
  if (hsts !== `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`) throw new Error(`Unexpected HSTS value: ${hsts}`);
  if (headers['X-Content-Type-Options'] !== 'nosniff') throw new Error('X-Content-Type-Options must be nosniff');
  return new cloudfront.ResponseHeadersPolicy(scope, id, {
    comment,
    // override: the headers win over whatever the origin (API handler or S3 metadata) sent.
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: headers['Content-Security-Policy'], override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
        includeSubdomains: true,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: headers['X-Frame-Options'] as cloudfront.HeadersFrameOption, override: true },
      referrerPolicy: { referrerPolicy: headers['Referrer-Policy'] as cloudfront.HeadersReferrerPolicy, override: true },
    },
  });
}

export interface ConsoleSiteProps {
  /** The REST API that serves `/api/*`. */
  api: apigateway.RestApi;
  /** The built console (`index.html` and `assets/`). */
  consoleDir: string;
  /** The files bucket's origin: the page uploads there and shows uploaded images from there (its CSP). */
  filesOrigin: string;
  /** How long the upload function's logs are kept, and whether they go with the stack. */
  logRetention?: logs.RetentionDays;
  logRemovalPolicy?: RemovalPolicy;
}

export class ConsoleSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** Generated at deploy time; proves a request to API Gateway came through this distribution. */
  readonly originSecret: secretsmanager.Secret;
  /**
   * The secret as a CloudFormation dynamic reference (`{{resolve:secretsmanager:...}}`), for the
   * functions' ORIGIN_VERIFY: CloudFormation resolves it at deploy time, so the value appears in
   * no template, cloud assembly or repository.
   */
  readonly originVerify: string;
  /** `https://<distribution domain>`: the console, with the API under /api. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    if (!existsSync(path.join(props.consoleDir, 'index.html'))) {
      throw new Error(`The console is not built: ${path.join(props.consoleDir, 'index.html')} is missing (npm run build:console)`);
    }

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      // OAC needs bucket-owner-enforced ownership (no ACLs).
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    });

    this.originSecret = new secretsmanager.Secret(this, 'OriginVerify', {
      description: `Talent pipeline: value of ${ORIGIN_VERIFY_HEADER} that CloudFront adds to API requests`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    this.originVerify = this.originSecret.secretValue.unsafeUnwrap();

    const viewerRequest = (fnId: string, code: string, comment: string): cloudfront.FunctionAssociation => ({
      eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
      function: new cloudfront.Function(this, fnId, {
        code: cloudfront.FunctionCode.fromInline(code),
        runtime: cloudfront.FunctionRuntime.JS_2_0,
        comment,
      }),
    });

    const apiBehavior: cloudfront.BehaviorOptions = {
      origin: new origins.RestApiOrigin(props.api, { customHeaders: { [ORIGIN_VERIFY_HEADER]: this.originVerify } }),
      // No redirect for the API: a redirected POST would turn into a GET.
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // Cookies, query strings and headers go to the API; its Host stays API Gateway's own.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: true,
      responseHeadersPolicy: securityHeadersPolicy(
        this,
        'ApiHeaders',
        API_SECURITY_HEADERS,
        'Talent pipeline API: CSP and security headers',
      ),
      functionAssociations: [
        viewerRequest('ApiViewerHeaders', API_VIEWER_HEADERS_CODE, 'Viewer address and host for the API, set by CloudFront'),
      ],
    };

    const boardCache = this.boardCachePolicy();
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Talent pipeline: workspace console and API',
      defaultRootObject: 'index.html',
      // North America and Europe edges only: the cheapest class.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: securityHeadersPolicy(
          this,
          'ConsoleHeaders',
          consoleSecurityHeaders(props.filesOrigin),
          'Talent pipeline console: CSP and security headers',
        ),
        functionAssociations: [viewerRequest('SpaRewrite', SPA_REWRITE_CODE, 'Client-side routes get /index.html')],
      },
      additionalBehaviors: {
        // The same origin, headers and viewer function as the API; answers cached as the board
        // functions say (s-maxage, lib/board-headers.ts), keyed by path and query only: no cookie or
        // token reaches these routes' answers.
        [BOARDS_PATH_PATTERN]: { ...apiBehavior, cachePolicy: boardCache },
        [API_PATH_PATTERN]: apiBehavior,
        [CAREERS_PATH_PATTERN]: {
          ...apiBehavior,
          cachePolicy: boardCache,
          responseHeadersPolicy: securityHeadersPolicy(
            this,
            'CareersHeaders',
            // The CV step's page posts its form to the files bucket: CloudFront's one policy for
            // every careers page must admit that target, or it would replace the function's own.
            { ...API_SECURITY_HEADERS, 'Content-Security-Policy': careersCsp(props.filesOrigin) },
            'Talent pipeline careers pages: CSP and security headers',
          ),
        },
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    // The deployment's own function logs here, kept a month like every other function's logs.
    const logGroup = new logs.LogGroup(this, 'DeploymentLogs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy,
    });
    const source = s3deploy.Source.asset(props.consoleDir);
    // Hashed assets first, then the page that names them, so a new page never points at files
    // not uploaded yet. No pruning: a tab still showing the previous page can load its chunks.
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: [`${HASHED_ASSETS_PREFIX}*`],
      prune: false,
      cacheControl: [
        s3deploy.CacheControl.setPublic(),
        s3deploy.CacheControl.maxAge(Duration.days(365)),
        s3deploy.CacheControl.immutable(),
      ],
      logGroup,
    });
    const page = new s3deploy.BucketDeployment(this, 'DeployPage', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: [`${HASHED_ASSETS_PREFIX}*`],
      prune: false,
      cacheControl: [s3deploy.CacheControl.noCache()],
      // Client-side routes are rewritten to /index.html before the cache lookup, so this one
      // path covers every page; hashed assets never change under their names.
      distribution: this.distribution,
      distributionPaths: ['/index.html'],
      logGroup,
    });
    page.node.addDependency(assets);
    this.acknowledgeFindings(page);
  }

  /**
   * The public boards' cache: the origin's own lifetime (s-maxage, at most a minute), keyed by path
   * and query string; no header or cookie in the key, so every viewer shares one copy.
   */
  private boardCachePolicy() {
    return new cloudfront.CachePolicy(this, 'BoardCache', {
      comment: 'Talent pipeline: public job boards, as long as the origin says (s-maxage)',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      // Above the boards' own s-maxage (BOARD_EDGE_SECONDS), so their header decides.
      maxTtl: Duration.seconds(60),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
  }

  /** cdk-nag findings that are choices, each on the construct it concerns (test/unit/nag.test.ts). */
  private acknowledgeFindings(deployment: s3deploy.BucketDeployment) {
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The bucket holds only the public console build and is read only by this distribution (origin access control); every read is a CloudFront request, and API calls are in the API access log.',
    });
    Validations.of(this.originSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFormation resolves the secret only when it updates the distribution and the functions, so a rotation Lambda would leave them disagreeing; docs/deploying.md ("What runs where", origin secret) gives the manual rotation (new value, then a deploy that updates both).',
    });
    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'A workspace tool used wherever its tenants work; there is no country to exclude.' },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The API behind /api/* has its own web ACL on the API Gateway stage (infra/constructs/waf.ts), which also covers direct execute-api callers; the rest is static files. A CloudFront web ACL would have to live in us-east-1.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'Standard logs need an extra bucket with ACLs enabled; the requests that matter (/api/*) are in the API access log with the viewer address, and the console is static.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          "The distribution uses CloudFront's default *.cloudfront.net certificate, whose security policy CloudFront fixes; a custom domain with an ACM certificate would allow TLSv1.2_2021.",
      },
    );
    // CDK's BucketDeployment handler, a singleton function CDK builds and updates itself.
    const handler = deployment.handlerRole.node.scope!;
    Validations.of(handler).acknowledge(
      {
        id: 'AwsSolutions-L1',
        reason: "CDK's own BucketDeployment handler: aws-cdk-lib chooses and updates its Python runtime; it runs only during deployments.",
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "CDK's BucketDeployment handler role; it logs to its own group with a retention (DeploymentLogs).",
      },
    );
    const s3Wildcards = [
      'Action::s3:GetObject*',
      'Action::s3:GetBucket*',
      'Action::s3:List*',
      'Action::s3:DeleteObject*',
      'Action::s3:Abort*',
    ];
    const stack = Stack.of(this);
    const bucketId = stack.getLogicalId(this.bucket.node.defaultChild as CfnElement);
    Validations.of(deployment.handlerRole).acknowledge(
      ...s3Wildcards.map((finding) => ({
        id: `AwsSolutions-IAM5[${finding}]`,
        reason:
          "CDK's BucketDeployment grants: read the CDK asset bucket, write and replace objects in the console bucket; the stack test pins the targets.",
      })),
      {
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
        reason: 'The objects of the console bucket, which this deployment uploads.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
        reason: "The CDK bootstrap asset bucket's objects, where the console zip is staged.",
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'cloudfront:CreateInvalidation and GetInvalidation support no resource-level permissions here.',
      },
    );
  }
}
