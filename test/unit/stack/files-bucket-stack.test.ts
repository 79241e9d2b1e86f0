/**
 * The files bucket in the deployed stack as synthesized (test/unit/stack/fixture.ts): its
 * settings, its CORS origin, which functions hold which rights on it (grantFiles,
 * infra/constructs/files-bucket.ts; the grants themselves: files-bucket.test.ts), and the event
 * rule that starts the file worker.
 */
import { describe, expect, it } from 'vitest';
import { FILE_WORKER_MODULE } from '../../../infra/constructs/file-worker';
import { IMPORT_WORKER_MODULE } from '../../../infra/constructs/import-queue';
import { RETENTION_MODULE } from '../../../infra/constructs/retention';
import { keys, uploadKey } from '../../../lib/store/table';
import {
  actionsOf,
  admittedBy,
  appFunctions,
  dynamoStatements,
  functionOf,
  iamLike,
  type Json,
  ofType,
  ROUTES,
  resources,
  tableId,
} from './fixture';

const bucketsOf = (res: Record<string, Json>) =>
  Object.entries(res).filter(([, r]) => r.Type === 'AWS::S3::Bucket' && JSON.stringify(r.Properties).includes('UnattachedUploads'));

describe('the files bucket in the deployed stack', () => {
  it('is private, encrypted, versioned, TLS-only, and expires unattached uploads and old versions after a day', () => {
    const found = bucketsOf(resources);
    expect(found).toHaveLength(1);
    const [id, bucket] = found[0]!;
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe(
      'AES256',
    );
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.Properties.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    const rules = bucket.Properties.LifecycleConfiguration.Rules as Json[];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Id: 'UnattachedUploads', Prefix: 'uploads/', ExpirationInDays: 1, Status: 'Enabled' }),
        expect.objectContaining({ Id: 'NoncurrentVersions', NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: 'Enabled' }),
      ]),
    );
    // Kept with a prod stack, like the table.
    expect(bucket.DeletionPolicy).toBe('Retain');

    const policy = ofType('AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties.Bucket).includes(id))?.[1];
    const statements = policy!.Properties.PolicyDocument.Statement as Json[];
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
    );
    // Malware protection is off unless asked for.
    expect(ofType('AWS::GuardDuty::MalwareProtectionPlan')).toEqual([]);
  });

  it("answers CORS to the console's origin (the distribution) for POST uploads and GET downloads, and to any origin for POST alone", () => {
    const [, bucket] = bucketsOf(resources)[0]!;
    const [rule, anySite, ...more] = bucket.Properties.CorsConfiguration.CorsRules as Json[];
    expect(rule.AllowedMethods.sort()).toEqual(['GET', 'POST']);
    expect(rule.AllowedOrigins).toHaveLength(1);
    expect(JSON.stringify(rule.AllowedOrigins)).toMatch(/DomainName/);
    expect(JSON.stringify(rule.AllowedOrigins)).not.toContain('*');
    // The public CV upload, from any site's browser code: POST only (lib/files/cors.ts).
    expect(anySite).toMatchObject({ Id: 'AnySiteUploads', AllowedOrigins: ['*'], AllowedMethods: ['POST'] });
    expect(more).toEqual([]);
  });

  it('each function reaches it only as its route line says (lib/api/route.ts `files`); the workers and retention as they need', () => {
    const s3Actions = (fnId: string) => [...new Set(actionsOf(fnId).filter((a) => a.startsWith('s3:')))].sort();
    const READ = ['s3:GetObject'];
    const WRITE = ['s3:PutObject'];
    const DELETE = ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:ListBucketVersions'];
    const expected = new Map<string, string[]>();
    for (const r of ROUTES) {
      const levels = r.files ?? [];
      const actions = [
        ...(levels.includes('read') ? READ : []),
        ...(levels.includes('write') ? WRITE : []),
        ...(levels.includes('delete') ? DELETE : []),
      ];
      expected.set(r.handler, actions.sort());
    }
    expected.set(FILE_WORKER_MODULE, [...READ, ...DELETE].sort());
    expected.set(RETENTION_MODULE, [...DELETE].sort());
    // An applicant's CV: read and checked where it was uploaded, moved to the person's file key, or deleted.
    expected.set(IMPORT_WORKER_MODULE, [...READ, ...WRITE, ...DELETE].sort());
    expect(expected.get('download-file')).toEqual(READ);
    expect(expected.get('list-candidates')).toEqual([]);
    for (const [module, actions] of expected) expect(s3Actions(functionOf(module)), module).toEqual(actions);
    // Every other function holds no S3 action at all.
    const known = new Set([...expected.keys()].map((m) => functionOf(m)));
    for (const [fnId] of appFunctions().filter(([id]) => !known.has(id))) expect(s3Actions(fnId), fnId).toEqual([]);
  });

  it('the file worker reaches the table in person partitions and upload partitions only, never the rest of a workspace', () => {
    const statements = dynamoStatements(functionOf(FILE_WORKER_MODULE));
    const grants = statements.map((st) => ({
      actions: [st.Action].flat().sort(),
      resource: st.Resource,
      condition: st.Condition,
    }));
    const on = (leading: string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leading } });
    const table = { 'Fn::GetAtt': [tableId(), 'Arn'] };
    expect(grants).toEqual([
      { actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], resource: table, condition: on(['T#*#PERSON#*']) },
      { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resource: table, condition: on(['T#*#UPLOAD#*']) },
    ]);
    // The upload pattern admits an upload's record and no item of any other key builder: not the
    // workspace's own partition (tokens, users, candidates, settings), not a person's.
    expect(iamLike('T#*#UPLOAD#*').test(uploadKey('tenant-1', 'id-2').PK)).toBe(true);
    expect(admittedBy('T#*#UPLOAD#*')).toEqual([]);
    expect(iamLike('T#*#UPLOAD#*').test(keys.tenant('tenant-1').PK)).toBe(false);
  });

  it('the bucket sends its events to EventBridge, and a rule hands attached files (files/) and landed uploads (uploads/, checked when issued for a new person) to the worker', () => {
    const [, bucket] = bucketsOf(resources)[0]!;
    expect(bucket.Properties.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties.EventPattern ?? {}).includes('Object Created'));
    expect(rules).toHaveLength(1);
    const rule = rules[0]![1];
    expect(rule.Properties.EventPattern.detail.object.key).toEqual([{ prefix: 'files/' }, { prefix: 'uploads/' }]);
    // The bucket's own name: fixed by stage, account and region (filesBucketName), not a reference.
    expect(bucket.Properties.BucketName).toBeDefined();
    expect(rule.Properties.EventPattern.detail.bucket.name).toEqual([bucket.Properties.BucketName]);
    expect(JSON.stringify(rule.Properties.Targets)).toContain(functionOf(FILE_WORKER_MODULE));
    // No bucket-notification custom resource (and no function of CDK's to run it).
    expect(ofType('Custom::S3BucketNotifications')).toEqual([]);
  });
});
