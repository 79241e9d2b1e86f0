/**
 * The files bucket: CVs and the other documents people upload (lib/files). Private and encrypted
 * (SSE-S3), all public access blocked, TLS only, bucket-owner objects (no ACLs), versioned (so an
 * erasure deletes every version: lib/files/storage.ts deleteEveryVersion), uploads never attached
 * expiring after a day, noncurrent versions after a day, and CORS for the console's origin (the
 * browser POSTs uploads and GETs downloads straight to the bucket) and POSTs from any origin (the
 * public CV upload; lib/files/cors.ts).
 *
 * No function touches it unless given access with grantFiles, which states exactly the S3
 * actions and prefixes of each level (test/unit/stack/files-bucket.test.ts pins them).
 *
 * `malwareProtection` (`-c malwareProtection=true`) adds GuardDuty Malware Protection for S3 on
 * attached files (`files/`): GuardDuty scans each new object and tags it
 * `GuardDutyMalwareScanStatus`; the bucket policy then refuses to serve an attached file until
 * that tag says NO_THREATS_FOUND (so a download link of an unscanned or infected file fails at
 * S3), and only GuardDuty may set that tag. Its cost: docs/deploying.md, "Files".
 */
import { Aws, Duration, Lazy, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import * as guardduty from 'aws-cdk-lib/aws-guardduty';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { FILES_PREFIX, UPLOADS_PREFIX } from '../../lib/files/keys';
import { SCAN_CLEAN, SCAN_TAG } from '../../lib/domain/file-scan-rules';
import { filesCorsRules } from '../../lib/files/cors';
import { UNATTACHED_UPLOAD_DAYS } from '../../lib/files/limits';
import type { StageConfig } from '../stages';
import { Concern } from './concern';

export type FilesAccess = 'read' | 'write' | 'delete';

/** The S3 actions of each access level, on the objects of both prefixes (ListBucketVersions on the bucket, by prefix). */
export const FILES_ACTIONS: Record<FilesAccess, readonly string[]> = {
  // HeadObject is authorised by GetObject: the after-landing check, the worker's read, download links.
  read: ['s3:GetObject'],
  // A presigned POST is authorised by its signer's PutObject; the move of an upload to its file key is a GetObject and a PutObject.
  write: ['s3:PutObject'],
  // Every version of one key: list its versions (prefix-limited) and delete each of them.
  delete: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
};
/** The tag GuardDuty Malware Protection writes on each object it scanned, and the value that clears it (the API's rule too). */
export { SCAN_CLEAN, SCAN_TAG } from '../../lib/domain/file-scan-rules';

export interface FilesBucketProps {
  /** Origins that may POST uploads and GET downloads from a browser: the console's. */
  allowedOrigins: string[];
  stage: StageConfig;
  /** GuardDuty Malware Protection for S3 on attached files; off unless `-c malwareProtection=true`. */
  malwareProtection?: boolean;
}

/**
 * The bucket's name, fixed by stage, account and region rather than generated: the functions'
 * grants and FILES_BUCKET name it without a reference to the bucket. A reference would close a
 * loop (the bucket's CORS origin is the console's distribution, whose origin is the API stage,
 * whose deployment needs every route function, whose policy and environment would need the
 * bucket), which CloudFormation refuses.
 */
export const filesBucketName = (stage: StageConfig) => `talent-pipeline-files-${stage.name}-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

/** Where browsers reach the bucket (lib/files/s3-lite.ts addresses it so): the console's CSP admits this origin. */
export const filesBucketOrigin = (stage: StageConfig) => `https://${filesBucketName(stage)}.s3.${Aws.REGION}.amazonaws.com`;

export class FilesBucket extends Concern {
  readonly bucket: s3.Bucket;
  /** The bucket's name and ARN as strings of pseudo parameters only (filesBucketName). */
  readonly bucketName: string;
  readonly bucketArn: string;
  /** The GuardDuty plan, when malware protection is on. */
  readonly malwareProtectionPlan?: guardduty.CfnMalwareProtectionPlan;
  private readonly readBeforeScan: string[] = [];

  constructor(scope: Construct, id: string, props: FilesBucketProps) {
    super(scope, id);
    this.bucketName = filesBucketName(props.stage);
    this.bucketArn = `arn:${Aws.PARTITION}:s3:::${this.bucketName}`;
    this.bucket = new s3.Bucket(this, 'FilesBucket', {
      bucketName: this.bucketName,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      // Kept with a prod stack (it holds personal data whose erasure the service records); a dev
      // stack's is deleted with it, once emptied (docs/deploying.md, "Files").
      removalPolicy: props.stage.tableRemovalPolicy,
      lifecycleRules: [
        {
          // An upload never attached: its presigned POST lapsed after 10 minutes, and a day is
          // ample for the attach call. In a versioned bucket expiry leaves a delete marker; the
          // noncurrent rule below then removes the bytes a day later.
          id: 'UnattachedUploads',
          prefix: UPLOADS_PREFIX,
          // The local S3 has no lifecycle: dev/upload-expiry.ts sweeps at the same age.
          expiration: Duration.days(UNATTACHED_UPLOAD_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(UNATTACHED_UPLOAD_DAYS),
        },
        // Versions replaced or deleted without their version id (never by the service, which
        // deletes every version): gone after a day, so nothing lingers past an erasure.
        { id: 'NoncurrentVersions', noncurrentVersionExpiration: Duration.days(1) },
        { id: 'OrphanDeleteMarkers', expiredObjectDeleteMarker: true },
      ],
      // The console's origins POST and GET; any origin may POST (the public CV upload): lib/files/cors.ts says why.
      cors: filesCorsRules(props.allowedOrigins).map((r) => ({
        id: r.id,
        allowedOrigins: [...r.origins],
        allowedMethods: r.methods.map((m) => s3.HttpMethods[m]),
        allowedHeaders: [...r.headers],
        ...(r.expose.length && { exposedHeaders: [...r.expose] }),
        maxAge: r.maxAgeSeconds,
      })),
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Every read and write goes through a function that records it (the audit log, the API access log); server access logs would need a second bucket and would log object keys, which hold ids only.',
    });
    if (props.malwareProtection) this.malwareProtectionPlan = this.protect();
  }

  /**
   * Give a function exactly one level of access to the files bucket, and its name (FILES_BUCKET).
   * Levels add up by calling again: `read` (GetObject: HeadObject, reads, download links),
   * `write` (PutObject: presigned POSTs and the move to the file key), `delete` (list one key's
   * versions, delete them). Always on the `uploads/` and `files/` objects only; never tagging,
   * ACLs, policy or bucket settings. `beforeScan` (with malware protection) lets this function
   * read an attached file GuardDuty has not cleared yet: the file worker, never a download route.
   */
  grantFiles(fn: lambda.Function, access: FilesAccess, opts: { beforeScan?: boolean } = {}): void {
    const objects = [UPLOADS_PREFIX, FILES_PREFIX].map((p) => `${this.bucketArn}/${p}*`);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...FILES_ACTIONS[access]], resources: objects }));
    if (access === 'delete') {
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['s3:ListBucketVersions'],
          resources: [this.bucketArn],
          conditions: { StringLike: { 's3:prefix': [`${UPLOADS_PREFIX}*`, `${FILES_PREFIX}*`] } },
        }),
      );
    }
    fn.addEnvironment('FILES_BUCKET', this.bucketName);
    if (this.malwareProtectionPlan) {
      fn.addEnvironment('FILES_MALWARE_SCAN', 'true');
      if (opts.beforeScan && access === 'read') this.readBeforeScan.push(fn.role!.roleArn);
    }
    // cdk-nag's IAM5 names the object wildcards by the ARN as written, pseudo parameters in brackets.
    const named = `arn:<AWS::Partition>:s3:::${this.bucketName.replace(Aws.ACCOUNT_ID, '<AWS::AccountId>').replace(Aws.REGION, '<AWS::Region>')}`;
    Validations.of(fn.role!).acknowledge(
      ...[UPLOADS_PREFIX, FILES_PREFIX].map((prefix) => ({
        id: `AwsSolutions-IAM5[Resource::${named}/${prefix}*]`,
        reason: `The ${prefix} objects of the files bucket, one per id (lib/files/keys.ts); never the bucket's settings, tags or policy.`,
      })),
    );
  }

  /**
   * Tell a function that reads files without bucket access (the text route) that attached files
   * are scanned, so that it serves only clean ones (FILES_MALWARE_SCAN=true). Nothing without the plan.
   */
  tellScanning(fn: lambda.Function): void {
    if (this.malwareProtectionPlan) fn.addEnvironment('FILES_MALWARE_SCAN', 'true');
  }

  /** GuardDuty's plan and role, and the bucket policy that holds attached files until they are scanned clean. */
  private protect(): guardduty.CfnMalwareProtectionPlan {
    const stack = Stack.of(this);
    const rule = stack.formatArn({
      service: 'events',
      resource: 'rule',
      resourceName: 'DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3*',
    });
    const attached = this.bucket.arnForObjects(`${FILES_PREFIX}*`);
    // The permissions GuardDuty documents for a protected bucket, on this bucket and prefix only.
    const role = new iam.Role(this, 'MalwareScanRole', {
      assumedBy: new iam.ServicePrincipal('malware-protection-plan.guardduty.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      description: 'GuardDuty Malware Protection for S3: scan and tag attached files',
      inlinePolicies: {
        scan: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              sid: 'ManagedRule',
              actions: ['events:PutRule', 'events:DeleteRule', 'events:PutTargets', 'events:RemoveTargets'],
              resources: [rule],
              conditions: { StringLike: { 'events:ManagedBy': 'malware-protection-plan.guardduty.amazonaws.com' } },
            }),
            new iam.PolicyStatement({
              sid: 'ReadManagedRule',
              actions: ['events:DescribeRule', 'events:ListTargetsByRule'],
              resources: [rule],
            }),
            new iam.PolicyStatement({
              sid: 'BucketEvents',
              actions: ['s3:PutBucketNotification', 's3:GetBucketNotification', 's3:ListBucket'],
              resources: [this.bucket.bucketArn],
            }),
            new iam.PolicyStatement({
              sid: 'ValidationObject',
              actions: ['s3:PutObject'],
              resources: [this.bucket.arnForObjects('malware-protection-resource-validation-object')],
            }),
            new iam.PolicyStatement({
              sid: 'ScanAndTag',
              actions: [
                's3:GetObject',
                's3:GetObjectVersion',
                's3:PutObjectTagging',
                's3:GetObjectTagging',
                's3:PutObjectVersionTagging',
                's3:GetObjectVersionTagging',
              ],
              resources: [attached],
            }),
          ],
        }),
      },
    });
    const cfnBucket = this.bucket.node.defaultChild as CfnElement;
    Validations.of(role).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:events:<AWS::Region>:<AWS::AccountId>:rule/DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3*]',
        reason: "GuardDuty's documented grant: the EventBridge rules it manages for the plan, named by this prefix.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(cfnBucket)}.Arn>/${FILES_PREFIX}*]`,
        reason: 'The attached files GuardDuty scans and tags, and nothing else of the bucket.',
      },
    );
    const notGuardDuty = Lazy.list({ produce: () => [role.roleArn, ...this.readBeforeScan] });
    // An attached file is served only once GuardDuty has tagged it clean (a missing tag counts as not clean)...
    this.bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'ServeOnlyScannedClean',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:GetObject', 's3:GetObjectVersion'],
        resources: [attached],
        conditions: {
          StringNotEquals: { [`s3:ExistingObjectTag/${SCAN_TAG}`]: SCAN_CLEAN },
          ArnNotEquals: { 'aws:PrincipalArn': notGuardDuty },
        },
      }),
    );
    // ...and only GuardDuty writes tags there, so no one can pose as scanned.
    this.bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'OnlyGuardDutyTags',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:PutObjectTagging', 's3:PutObjectVersionTagging', 's3:DeleteObjectTagging', 's3:DeleteObjectVersionTagging'],
        resources: [attached],
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': role.roleArn } },
      }),
    );
    const plan = new guardduty.CfnMalwareProtectionPlan(this, 'MalwareProtection', {
      role: role.roleArn,
      protectedResource: { s3Bucket: { bucketName: this.bucket.bucketName, objectPrefixes: [FILES_PREFIX] } },
      actions: { tagging: { status: 'ENABLED' } },
    });
    // GuardDuty checks its role's access when the plan is created.
    plan.node.addDependency(role);
    return plan;
  }
}
