/**
 * The files bucket in the deployed stack as synthesized (test/unit/stack/fixture.ts): its
 * settings, its CORS origin, and that no function holds any right on it until a route is given
 * one with grantFiles (infra/constructs/files-bucket.ts; the grants themselves:
 * files-bucket.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { appFunctions, type Json, ofType, resources, statementsOf } from './fixture';

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

  it("answers CORS to the console's origin only (the distribution), for POST uploads and GET downloads", () => {
    const [, bucket] = bucketsOf(resources)[0]!;
    const [rule] = bucket.Properties.CorsConfiguration.CorsRules as Json[];
    expect(rule.AllowedMethods.sort()).toEqual(['GET', 'POST']);
    expect(rule.AllowedOrigins).toHaveLength(1);
    expect(JSON.stringify(rule.AllowedOrigins)).toMatch(/DomainName/);
    expect(JSON.stringify(rule.AllowedOrigins)).not.toContain('*');
  });

  it('no function may touch it yet: no S3 action on it in any role (the file routes will call grantFiles)', () => {
    const [id] = bucketsOf(resources)[0]!;
    const functions = appFunctions();
    expect(functions.length).toBeGreaterThan(10);
    for (const [fnId] of functions) {
      const onBucket = statementsOf(fnId).filter((s) => JSON.stringify(s.Resource).includes(id));
      expect(onBucket, fnId).toEqual([]);
    }
  });
});
