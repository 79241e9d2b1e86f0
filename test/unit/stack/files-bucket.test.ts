/**
 * The files bucket (infra/constructs/files-bucket.ts) and SES sending (infra/constructs/mail.ts)
 * in a small stack of their own, whose functions are given each access level, so that grantFiles
 * and allowSending are pinned before any route uses them (no bundling: inline functions). The
 * bucket as the deployed stack has it: files-bucket-stack.test.ts.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { addScanResultRule, FILE_WORKER_MODULE } from '../../../infra/constructs/file-worker';
import { TableFunction } from '../../../infra/constructs/table-function';
import { keys, uploadKey } from '../../../lib/store/table';
import { FILES_ACTIONS, FilesBucket, SCAN_CLEAN, SCAN_TAG } from '../../../infra/constructs/files-bucket';
import { SCAN_RESULT_EVENT } from '../../../lib/domain/file-scan-rules';
import { UPLOAD_VALID_SECONDS } from '../../../lib/files/limits';
import { Mail } from '../../../infra/constructs/mail';
import { STAGES } from '../../../infra/stages';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A stack with the bucket (and mail) and one function per access level. */
function smallStack(opts: { malwareProtection?: boolean; mailDomain?: string } = {}) {
  const app = new App();
  const stack = new Stack(app, 'Files', { env: { account: '123456789012', region: 'eu-west-1' } });
  const files = new FilesBucket(stack, 'Files', {
    allowedOrigins: ['https://console.example'],
    stage: STAGES.prod,
    malwareProtection: opts.malwareProtection,
  });
  const mail = new Mail(stack, 'Mail', { domain: opts.mailDomain });
  const fn = (id: string) =>
    new lambda.Function(stack, id, {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler=()=>1'),
    });
  const fns = {
    reader: fn('Reader'),
    writer: fn('Writer'),
    deleter: fn('Deleter'),
    worker: fn('Worker'),
    sender: fn('Sender'),
    text: fn('TextRoute'),
  };
  files.grantFiles(fns.reader, 'read');
  files.tellScanning(fns.text);
  addScanResultRule(stack, fns.worker, files);
  files.grantFiles(fns.writer, 'write');
  files.grantFiles(fns.deleter, 'delete');
  files.grantFiles(fns.worker, 'read', { beforeScan: true });
  if (opts.mailDomain) mail.allowSending(fns.sender);
  const t = Template.fromStack(stack).toJSON();
  const id = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as never);
  return {
    t,
    files,
    mail,
    fns,
    fnId: (f: lambda.Function) => id(f),
    bucketId: id(files.bucket),
    resolve: (v: unknown) => stack.resolve(v),
  };
}

const policyOf = (t: Json, fnId: string): Json[] => {
  const role = t.Resources[fnId].Properties.Role['Fn::GetAtt'][0];
  return Object.values<Json>(t.Resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
};

describe('CORS', () => {
  it("the console's origins POST and GET (ETag exposed), then any origin POSTs only: the public CV upload", () => {
    const { t, bucketId } = smallStack();
    expect(t.Resources[bucketId].Properties.CorsConfiguration.CorsRules).toEqual([
      {
        Id: 'Console',
        AllowedOrigins: ['https://console.example'],
        AllowedMethods: ['POST', 'GET'],
        AllowedHeaders: ['*'],
        ExposedHeaders: ['ETag'],
        MaxAge: UPLOAD_VALID_SECONDS,
      },
      // First match wins: the console's origin keeps its own rule; every other origin may only POST.
      { Id: 'AnySiteUploads', AllowedOrigins: ['*'], AllowedMethods: ['POST'], AllowedHeaders: ['*'], MaxAge: UPLOAD_VALID_SECONDS },
    ]);
  });
});

describe('grantFiles: exactly one level of access, on the two prefixes only', () => {
  const { t, files, fns, fnId, bucketId, resolve } = smallStack();
  // By the bucket's fixed name, never a reference to it (infra/constructs/files-bucket.ts filesBucketName).
  const objectsArn = (prefix: string) => resolve(`${files.bucketArn}/${prefix}*`);

  it.each([
    ['read', 'reader', FILES_ACTIONS.read],
    ['write', 'writer', FILES_ACTIONS.write],
  ] as const)('%s: %j on uploads/* and files/*, nothing on the bucket itself', (_level, who, actions) => {
    const statements = policyOf(t, fnId(fns[who]));
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: actions.length === 1 ? actions[0] : [...actions],
        Resource: [objectsArn('uploads/'), objectsArn('files/')],
      },
    ]);
  });

  it('delete: DeleteObject and DeleteObjectVersion on the objects, and ListBucketVersions limited to the two prefixes', () => {
    expect(policyOf(t, fnId(fns.deleter))).toEqual([
      { Effect: 'Allow', Action: ['s3:DeleteObject', 's3:DeleteObjectVersion'], Resource: [objectsArn('uploads/'), objectsArn('files/')] },
      {
        Effect: 'Allow',
        Action: 's3:ListBucketVersions',
        Resource: resolve(files.bucketArn),
        Condition: { StringLike: { 's3:prefix': ['uploads/*', 'files/*'] } },
      },
    ]);
  });

  it('no level grants a wildcard action, tagging, ACLs, the policy or bucket settings', () => {
    const all = Object.values(fns).flatMap((f) => policyOf(t, fnId(f)).flatMap((s) => [s.Action].flat() as string[]));
    for (const a of all) expect(a).toMatch(/^s3:(GetObject|PutObject|DeleteObject|DeleteObjectVersion|ListBucketVersions)$/);
  });

  it('each granted function learns the bucket by FILES_BUCKET, and no malware flag while protection is off', () => {
    for (const f of [fns.reader, fns.writer, fns.deleter]) {
      const env = t.Resources[fnId(f)].Properties.Environment.Variables;
      // The bucket's fixed name (a reference would close a dependency loop in the deployed stack).
      expect(env.FILES_BUCKET).toEqual(resolve(files.bucketName));
      expect(JSON.stringify(env.FILES_BUCKET)).not.toContain(bucketId);
      expect(t.Resources[bucketId].Properties.BucketName).toEqual(resolve(files.bucketName));
      expect(env.FILES_MALWARE_SCAN).toBeUndefined();
    }
  });

  it('no scan results to take, and the text route is told nothing', () => {
    expect(Object.values<Json>(t.Resources).filter((r) => r.Type === 'AWS::Events::Rule')).toEqual([]);
    expect(t.Resources[fnId(fns.text)].Properties.Environment).toBeUndefined();
  });
});

describe('-c malwareProtection=true', () => {
  const { t, fns, fnId, bucketId } = smallStack({ malwareProtection: true });
  const plans = Object.values<Json>(t.Resources).filter((r) => r.Type === 'AWS::GuardDuty::MalwareProtectionPlan');
  const bucketPolicy = Object.values<Json>(t.Resources).find((r) => r.Type === 'AWS::S3::BucketPolicy')!.Properties.PolicyDocument
    .Statement as Json[];

  it('a GuardDuty plan scans and tags attached files (files/) with its own role', () => {
    expect(plans).toHaveLength(1);
    expect(plans[0].Properties).toMatchObject({
      ProtectedResource: { S3Bucket: { BucketName: { Ref: bucketId }, ObjectPrefixes: ['files/'] } },
      Actions: { Tagging: { Status: 'ENABLED' } },
    });
    const role = Object.values<Json>(t.Resources).find(
      (r) =>
        r.Type === 'AWS::IAM::Role' && JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('malware-protection-plan.guardduty'),
    );
    expect(role).toBeDefined();
    expect(JSON.stringify(role.Properties.Policies)).toContain('DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3*');
  });

  it('the bucket serves an attached file only once tagged clean, and only GuardDuty (and a worker allowed before the scan) is exempt', () => {
    const serve = bucketPolicy.find((s) => s.Sid === 'ServeOnlyScannedClean')!;
    expect(serve).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Action: ['s3:GetObject', 's3:GetObjectVersion'] });
    expect(serve.Condition.StringNotEquals).toEqual({ [`s3:ExistingObjectTag/${SCAN_TAG}`]: SCAN_CLEAN });
    const exempt = JSON.stringify(serve.Condition.ArnNotEquals['aws:PrincipalArn']);
    expect(exempt).toContain('MalwareScanRole');
    const workerRole = t.Resources[fnId(fns.worker)].Properties.Role['Fn::GetAtt'][0];
    const readerRole = t.Resources[fnId(fns.reader)].Properties.Role['Fn::GetAtt'][0];
    expect(exempt).toContain(workerRole);
    expect(exempt).not.toContain(readerRole);
    const tags = bucketPolicy.find((s) => s.Sid === 'OnlyGuardDutyTags')!;
    expect(tags.Effect).toBe('Deny');
    expect(tags.Action).toContain('s3:PutObjectTagging');
  });

  it('the functions given access are told (FILES_MALWARE_SCAN=true), and so is the text route, which has none', () => {
    expect(t.Resources[fnId(fns.reader)].Properties.Environment.Variables.FILES_MALWARE_SCAN).toBe('true');
    expect(t.Resources[fnId(fns.text)].Properties.Environment.Variables).toEqual({ FILES_MALWARE_SCAN: 'true' });
    expect(JSON.stringify(policyOf(t, fnId(fns.text)))).not.toContain('s3:');
  });

  it("GuardDuty's scan results for attached files of this bucket go to the file worker", () => {
    const rules = Object.values<Json>(t.Resources).filter((r) => r.Type === 'AWS::Events::Rule');
    expect(rules).toHaveLength(1);
    const { EventPattern, Targets } = rules[0].Properties;
    expect(EventPattern).toEqual({
      source: ['aws.guardduty'],
      'detail-type': [SCAN_RESULT_EVENT],
      detail: { s3ObjectDetails: { bucketName: [t.Resources[bucketId].Properties.BucketName], objectKey: [{ prefix: 'files/' }] } },
    });
    expect(Targets).toHaveLength(1);
    expect(Targets[0].Arn).toEqual({ 'Fn::GetAtt': [fnId(fns.worker), 'Arn'] });
  });
});

describe('SES sending', () => {
  it('without -c mailDomain there is no identity, and a function asking to send fails the synth with the flag to set', () => {
    const { mail, fns } = smallStack();
    expect(mail.identity).toBeUndefined();
    expect(() => mail.allowSending(fns.sender)).toThrow(/-c mailDomain/);
  });

  it('with a domain: a DKIM identity and a configuration set; allowSending grants SendEmail on those two only, from the one address', () => {
    const { t, fns, fnId } = smallStack({ mailDomain: 'talent.example' });
    const identity = Object.values<Json>(t.Resources).find((r) => r.Type === 'AWS::SES::EmailIdentity')!;
    expect(identity.Properties).toMatchObject({ EmailIdentity: 'talent.example', DkimAttributes: { SigningEnabled: true } });
    const set = Object.values<Json>(t.Resources).find((r) => r.Type === 'AWS::SES::ConfigurationSet')!;
    expect(set.Properties.SuppressionOptions.SuppressedReasons.sort()).toEqual(['BOUNCE', 'COMPLAINT']);
    const [statement] = policyOf(t, fnId(fns.sender));
    expect(statement.Action).toBe('ses:SendEmail');
    const identityId = Object.entries<Json>(t.Resources).find(([, r]) => r.Type === 'AWS::SES::EmailIdentity')![0];
    expect(statement.Resource).toContainEqual({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:eu-west-1:123456789012:identity/', { Ref: identityId }]],
    });
    expect(JSON.stringify(statement.Resource)).toMatch(/configuration-set\//);
    expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@talent.example' } });
    const env = t.Resources[fnId(fns.sender)].Properties.Environment.Variables;
    expect(env.MAIL_FROM).toBe('no-reply@talent.example');
    expect(env.SES_CONFIGURATION_SET).toEqual({ Ref: expect.any(String) });
    // No other function was given sending.
    expect(JSON.stringify(policyOf(t, fnId(fns.reader)))).not.toContain('ses:');
  });

  it('refuses a sender outside the domain', () => {
    const stack = new Stack(new App(), 'X');
    expect(() => new Mail(stack, 'Mail', { domain: 'talent.example', from: 'x@evil.example' })).toThrow(/address in talent.example/);
  });
});

describe("the file worker's table access (TableFunction, access 'file-worker')", () => {
  // A small stack of its own, without bundling (the deployed stack's policy: files-bucket-stack.test.ts).
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Worker', { env: { account: '123456789012', region: 'eu-west-1' } });
  const table = new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING } });
  const worker = new TableFunction(stack, 'FileWorker', {
    module: FILE_WORKER_MODULE,
    table,
    access: 'file-worker',
    timeout: Duration.seconds(60),
    stage: STAGES.prod,
  });
  const t = Template.fromStack(stack).toJSON();
  const fnId = stack.getLogicalId(worker.fn.node.defaultChild as never);

  it('reaches person partitions and upload partitions only: GetItem and UpdateItem of `T#*#UPLOAD#*`, never the workspace partition', () => {
    const dynamo = policyOf(t, fnId).filter((st) => [st.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
    const grants = dynamo.map((st) => ({
      effect: st.Effect,
      actions: [st.Action].flat().sort(),
      leading: st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'],
    }));
    expect(grants.filter((g) => g.effect === 'Allow')).toEqual([
      { effect: 'Allow', actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], leading: ['T#*#PERSON#*'] },
      { effect: 'Allow', actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], leading: ['T#*#UPLOAD#*'] },
    ]);
    // The pattern admits an upload's record and no other key: not the workspace's own partition.
    const like = (pk: string) => new RegExp(`^${'T#*#UPLOAD#*'.split('*').join('.*')}$`).test(pk);
    expect(like(uploadKey('tenant-1', 'upload-2').PK)).toBe(true);
    for (const [name, build] of Object.entries(keys)) {
      if (typeof build !== 'function') continue;
      const key = (build as (...a: string[]) => unknown)('tenant-1', 'id-2', 'id-3') as { PK?: unknown };
      if (typeof key?.PK === 'string') expect(like(key.PK), name).toBe(false);
    }
  });
});
