/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: least privilege: what
 * each function may do to the table and the queues, the authorizers confined to their own
 * partitions, no managed policies.
 */
import { describe, expect, it } from 'vitest';
import { APPLY_LIMIT_PREFIX, keys, LEASE_ATTRIBUTES } from '../../../lib/store/table';
import {
  AUDIT_DENIED_ACTIONS,
  AUDIT_LEADING_KEYS,
  AUDIT_WRITER_DENIED_ACTIONS,
  AUTHORIZER_WRITABLE,
  LEASE_LEADING_KEYS,
  TABLE_ACTIONS,
} from '../../../infra/constructs/table-function';
import { FANOUT_MODULE } from '../../../infra/constructs/webhook-pipeline';
import { STUCK_REINDEX_MODULE } from '../../../infra/constructs/stuck-reindex';
import {
  actionsOf,
  actionsOn,
  admittedBy,
  allStatementsOf,
  appFunctions,
  authorizerFunctionId,
  builtKeys,
  deliveryDlqId,
  deliveryQueueId,
  importDlqId,
  importQueueId,
  dynamoActionsOf,
  dynamoStatements,
  FORBIDDEN_ACTIONS,
  functionIn,
  functionOf,
  getAtts,
  iamLike,
  isAuditGuard,
  type Json,
  label,
  methodFor,
  ofType,
  READ_ACTIONS,
  resources,
  roleOf,
  ROUTE_WRITE_ACTIONS,
  ROUTES,
  sessionAuthorizerFunctionId,
  statementsOf,
  streamFailureDlqId,
  streamFailureQueueId,
  tableId,
  UNUSED_ACTIONS,
  WRITE_ACTIONS,
} from './fixture';

describe('least privilege', () => {
  it('read routes may GetItem and Query (table and indexes), nothing else (beside lease items, next test)', () => {
    expect(TABLE_ACTIONS.read).toEqual(READ_ACTIONS);
    const readRoutes = ROUTES.filter((r) => r.access === 'read');
    expect(readRoutes.length).toBeGreaterThan(0);
    for (const r of readRoutes) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      const leases = (st: Json) => JSON.stringify(st.Condition ?? {}).includes(LEASE_LEADING_KEYS[0]!);
      // The application's limit counters: UpdateItem on `APPLYLIMIT#` keys alone, and only there.
      const limits = (st: Json) => JSON.stringify(st.Condition ?? {}).includes(APPLY_LIMIT_PREFIX);
      for (const st of statementsOf(fn).filter(limits)) {
        expect([r.formToken, [st.Action].flat()], label(r)).toEqual(['check', ['dynamodb:UpdateItem']]);
      }
      const actions = statementsOf(fn)
        .filter((st) => !leases(st) && !limits(st))
        .flatMap((st) => [st.Action].flat());
      expect([...new Set(actions.filter((a) => a.startsWith('dynamodb:')))].sort(), label(r)).toEqual([...READ_ACTIONS].sort());
      for (const a of WRITE_ACTIONS) expect(actions, label(r)).not.toContain(a);
      expect(
        actions.some((a) => a === '*' || a === 'dynamodb:*'),
        label(r),
      ).toBe(false);
      // Query needs the indexes (stage and requisition listings), so this grant does name them.
      const resourcesOf = dynamoStatements(fn).flatMap((st) => [st.Resource].flat());
      expect(resourcesOf, label(r)).toContainEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
      expect(JSON.stringify(resourcesOf), label(r)).toContain('/index/*');
    }
  });

  it('write routes add Put, Update, Delete and ConditionCheck, never BatchWriteItem or Scan', () => {
    expect(TABLE_ACTIONS.write).toEqual([...READ_ACTIONS, ...ROUTE_WRITE_ACTIONS]);
    const writeRoutes = ROUTES.filter((r) => r.access === 'write');
    expect(writeRoutes.length).toBeGreaterThan(0);
    for (const a of FORBIDDEN_ACTIONS) expect(TABLE_ACTIONS.write).not.toContain(a);
    for (const r of writeRoutes) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      expect(dynamoActionsOf(fn), label(r)).toEqual([...READ_ACTIONS, ...ROUTE_WRITE_ACTIONS].sort());
      const actions = actionsOf(fn);
      for (const a of FORBIDDEN_ACTIONS) expect(actions, label(r)).not.toContain(a);
      // Routes that queue deliveries also hold SQS rights, pinned by the next test; the token
      // routes' API Gateway rights (API keys) are pinned by test/unit/rate-limits.test.ts; the
      // files bucket rights of routes whose line names `files` (erasure deletes a person's files)
      // by test/unit/stack/files-bucket-stack.test.ts.
      for (const a of actions.filter((x) => !x.startsWith('sqs:') && !x.startsWith('apigateway:') && !x.startsWith('s3:')))
        expect(TABLE_ACTIONS.write, `${label(r)}: ${a}`).toContain(a);
    }
  });

  it('only routes marked `leases` (the candidate list) may write, and only lease items: Put and Delete of T#*#LEASES items with their attributes', () => {
    const leaseRoutes = ROUTES.filter((r) => 'leases' in r && r.leases);
    expect(leaseRoutes.map(label).sort()).toEqual(['GET /api/candidates', 'GET /api/v1/candidates']);
    expect(LEASE_LEADING_KEYS.flatMap(admittedBy)).toEqual(['lease']);
    for (const r of ROUTES) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      const granted = statementsOf(fn).filter((st) => JSON.stringify(st.Condition ?? {}).includes(LEASE_LEADING_KEYS[0]!));
      if (!leaseRoutes.includes(r)) {
        expect(granted, label(r)).toEqual([]);
        continue;
      }
      expect(granted, label(r)).toHaveLength(1);
      expect([granted[0].Action].flat().sort(), label(r)).toEqual(['dynamodb:DeleteItem', 'dynamodb:PutItem']);
      expect(granted[0].Resource, label(r)).toEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
      expect(granted[0].Condition, label(r)).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': LEASE_LEADING_KEYS },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': LEASE_ATTRIBUTES },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
      });
    }
  });

  it('only routes marked `queue` (resend, replay) may send, and only to the delivery queue', () => {
    const queueRoutes = ROUTES.filter((r) => 'queue' in r && r.queue);
    expect(queueRoutes.map(label).sort()).toEqual(['POST /api/webhooks/{id}/replay', 'POST /api/webhooks/{id}/resend']);
    for (const r of ROUTES) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      const sqsActions = actionsOf(fn).filter((a) => a.startsWith('sqs:'));
      // The import route's rights on its own queue: pinned by the next test.
      if ('importQueue' in r && r.importQueue) continue;
      if (!queueRoutes.includes(r)) {
        expect(sqsActions, label(r)).toEqual([]);
        continue;
      }
      expect(actionsOn(fn, deliveryQueueId()), label(r)).toContain('sqs:SendMessage');
      for (const a of sqsActions) expect(['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], label(r)).toContain(a);
      expect(actionsOn(fn, deliveryDlqId()), label(r)).toEqual([]);
    }
  });

  it('only routes marked `importQueue` (the import, the public application and its careers form) may send to the import queue, and to nothing else', () => {
    const importRoutes = ROUTES.filter((r) => 'importQueue' in r && r.importQueue);
    // A public application is queued through the import queue and worker (lib/api/applications.ts).
    expect(importRoutes.map(label).sort()).toEqual(
      [
        'POST /api/boards/{slug}/jobs/{id}/applications',
        'POST /careers/{slug}/jobs/{id}/apply',
        'POST /api/candidates/imports',
        'POST /api/v1/candidates/imports',
      ].sort(),
    );
    for (const r of importRoutes) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      expect(actionsOn(fn, importQueueId()), label(r)).toContain('sqs:SendMessage');
      for (const a of actionsOf(fn).filter((x) => x.startsWith('sqs:')))
        expect(['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], label(r)).toContain(a);
      expect(actionsOn(fn, deliveryQueueId()), label(r)).toEqual([]);
    }
  });

  it('routes without table access (the OpenAPI document, the upload limits) get no DynamoDB permission at all', () => {
    const noneRoutes = ROUTES.filter((r) => r.access === 'none');
    expect(noneRoutes.map(label).sort()).toEqual(['GET /api/uploads/limits', 'GET /api/v1/openapi.json', 'GET /api/v1/uploads/limits']);
    const table = tableId();
    for (const r of noneRoutes) {
      const fn = functionIn(methodFor(r).Integration.Uri);
      expect(
        actionsOf(fn).filter((a) => a.startsWith('dynamodb:') || a === '*'),
        label(r),
      ).toEqual([]);
      for (const st of statementsOf(fn)) expect(getAtts(st), label(r)).not.toContain(table);
    }
  });

  it('no function may Scan the table, none is granted DescribeTable, which nothing calls, and BatchGetItem only beside GetItem', () => {
    const fns = appFunctions();
    expect(fns.length).toBeGreaterThan(1);
    for (const [id] of fns) {
      const actions = actionsOf(id);
      for (const a of ['dynamodb:Scan', ...UNUSED_ACTIONS]) expect(actions, id).not.toContain(a);
      // GetItem by the hundred: never a read the function could not make one item at a time.
      if (actions.includes('dynamodb:BatchGetItem')) expect(actions, id).toContain('dynamodb:GetItem');
    }
    // The reads that batch (a requisition with its plan, a member's assigned candidates) run in
    // functions with plain read access: DynamoDB Local would not refuse them, IAM would.
    expect(actionsOf(functionOf('get-interview-plan'))).toContain('dynamodb:BatchGetItem');
  });

  /** Each authorizer's grants: the partitions it reads, and those whose usage timestamp it sets. */
  const authorizerGrants = () => [
    // findTokenGrant: GetItem on keys.token(digest); touchToken: UpdateItem on keys.tenantToken.
    { fn: authorizerFunctionId(), get: ['TOKEN#*'], update: ['T#*'] },
    // getSession and touchSession: keys.session(digest).
    { fn: sessionAuthorizerFunctionId(), get: ['SESSION#*'], update: ['SESSION#*'] },
  ];

  it('the authorizers may only GetItem and UpdateItem, on the table itself, each within its own partitions', () => {
    // The usage timestamps, and the key attributes IAM needs listed along with them.
    expect([...AUTHORIZER_WRITABLE].sort()).toEqual(['PK', 'SK', 'last_seen_at', 'last_used_at']);
    const grants = authorizerGrants();
    expect(new Set(grants.map((g) => g.fn)).size).toBe(2);
    for (const { fn, get, update } of grants) {
      // No Query, BatchGetItem, DescribeTable, ConditionCheckItem, Put or Delete; no SQS either.
      expect([...new Set(actionsOf(fn))].sort(), fn).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
      const statements = statementsOf(fn);
      expect(statements, fn).toHaveLength(2);
      for (const st of statements) {
        expect(st.Effect, fn).toBe('Allow');
        // The table only: a single ARN, no index (GSI keys are not the partition key IAM checks).
        expect(st.Resource, fn).toEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
        expect(Object.keys(st.Condition['ForAllValues:StringLike']), fn).toEqual(['dynamodb:LeadingKeys']);
      }
      const [read] = statements.filter((st) => [st.Action].flat().includes('dynamodb:GetItem'));
      expect([read.Action].flat(), fn).toEqual(['dynamodb:GetItem']);
      expect(read.Condition, fn).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': get } });
      const [write] = statements.filter((st) => [st.Action].flat().includes('dynamodb:UpdateItem'));
      expect([write.Action].flat(), fn).toEqual(['dynamodb:UpdateItem']);
      expect(write.Condition, fn).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': update },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': AUTHORIZER_WRITABLE },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
      });
    }
  });

  it('the authorizer conditions admit the keys their store calls use, and no other global item', () => {
    const digest = 'a'.repeat(64); // a sha256 in hex
    const like = (pattern: string) => iamLike(pattern);
    const [token, session] = authorizerGrants();
    // Token lookups only; sessions, slugs, emails and login counters stay out of reach.
    expect(token!.get.flatMap(admittedBy)).toEqual(['token']);
    expect(like(token!.get[0]!).test(keys.token(digest).PK)).toBe(true);
    // The listing item touchToken updates lives in the tenant partition; so does every other
    // tenant record, which the dynamodb:Attributes condition keeps to the usage timestamps.
    const inTenant = builtKeys()
      .filter(([, key]) => key.PK.startsWith(keys.tenantPartition('tenant-1')))
      .map(([name]) => name)
      .sort();
    expect(inTenant).toContain('tenantToken');
    expect(token!.update.flatMap(admittedBy)).toEqual(inTenant);
    for (const name of ['token', 'session', 'slug', 'email', 'loginFailures'])
      expect(token!.update.flatMap(admittedBy)).not.toContain(name);
    // Sessions only, both to read and to slide.
    expect(session!.get.flatMap(admittedBy)).toEqual(['session']);
    expect(session!.update.flatMap(admittedBy)).toEqual(['session']);
    expect(like(session!.get[0]!).test(keys.session(digest).PK)).toBe(true);
    expect(like(session!.get[0]!).test(keys.token(digest).PK)).toBe(false);
  });

  it('function policies name only the table, its indexes and stream, the webhook and import queues, and the files bucket\'s objects; "*" only for ListStreams', () => {
    const table = tableId();
    // The files bucket is named by stage, account and region (filesBucketName), so grants name it
    // by that string, not by a reference: held to the one bucket's own name here, to its two
    // prefixes, and (ListBucketVersions) to the bucket with a prefix condition. Which function
    // holds which S3 actions, per its route line: files-bucket-stack.test.ts.
    const render = (v: Json): string =>
      typeof v === 'string'
        ? v
        : v?.Ref
          ? `\${${v.Ref}}`
          : v?.['Fn::Join']
            ? (v['Fn::Join'][1] as Json[]).map(render).join(v['Fn::Join'][0])
            : JSON.stringify(v);
    const buckets = ofType('AWS::S3::Bucket').filter(([, b]) => JSON.stringify(b.Properties).includes('UnattachedUploads'));
    expect(buckets).toHaveLength(1);
    const bucketArn = `arn:\${AWS::Partition}:s3:::${render(buckets[0]![1].Properties.BucketName)}`;
    const S3_ACTIONS = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:DeleteObjectVersion'];
    const queues = ofType('AWS::SQS::Queue').map(([qid]) => qid);
    expect(queues.sort()).toEqual(
      [deliveryQueueId(), deliveryDlqId(), streamFailureQueueId(), streamFailureDlqId(), importQueueId(), importDlqId()].sort(),
    );
    for (const [id] of appFunctions()) {
      for (const s of statementsOf(id)) {
        const actions: string[] = [s.Action].flat();
        const targets = [s.Resource].flat();
        if (targets.includes('*')) {
          // ListStreams has no resource-level permission; the stream event source needs it.
          expect(targets, id).toEqual(['*']);
          expect(actions, id).toEqual(['dynamodb:ListStreams']);
          expect(
            [functionOf(FANOUT_MODULE), functionOf(STUCK_REINDEX_MODULE)],
            'only the fan-out and the stuck re-index read the stream',
          ).toContain(id);
          continue;
        }
        // The token functions' API keys in the usage plan: pinned by test/unit/rate-limits.test.ts.
        if (actions.every((a) => a.startsWith('apigateway:'))) continue;
        if (actions.some((a) => a.startsWith('s3:'))) {
          if (actions.includes('s3:ListBucketVersions')) {
            expect(actions, id).toEqual(['s3:ListBucketVersions']);
            expect(targets.map(render), id).toEqual([bucketArn]);
            expect(s.Condition, id).toEqual({ StringLike: { 's3:prefix': ['uploads/*', 'files/*'] } });
          } else {
            for (const a of actions) expect(S3_ACTIONS, id).toContain(a);
            expect(targets.map(render), id).toEqual([`${bucketArn}/uploads/*`, `${bucketArn}/files/*`]);
          }
          continue;
        }
        for (const a of actions) expect(a, id).toMatch(/^(dynamodb|sqs):/);
        for (const t of targets) {
          const [target] = getAtts(t);
          expect(getAtts(t), id).toHaveLength(1);
          if (actions.every((a) => a.startsWith('dynamodb:'))) expect(target, id).toBe(table);
          else expect(queues, `${id}: ${target}`).toContain(target);
        }
      }
      expect(resources[roleOf(id)]!.Properties.ManagedPolicyArns, id).toBeUndefined();
    }
  });

  it('the audit log cannot be forged or changed: every function is denied PutItem, UpdateItem, DeleteItem and BatchWriteItem on audit partitions, but the table maintenance consumer may put', () => {
    expect([...AUDIT_DENIED_ACTIONS].sort()).toEqual([
      'dynamodb:BatchWriteItem',
      'dynamodb:DeleteItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    expect([...AUDIT_WRITER_DENIED_ACTIONS].sort()).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:UpdateItem']);
    const functions = appFunctions();
    expect(functions.length).toBeGreaterThan(ROUTES.length / 2);
    // The one exception, by name: the stream consumer that expands intents into records.
    const writer = functionOf(STUCK_REINDEX_MODULE);
    expect(functions.map(([id]) => id)).toContain(writer);
    const auditPattern = AUDIT_LEADING_KEYS[0]!;
    for (const [id] of functions) {
      const guards = allStatementsOf(id).filter(isAuditGuard);
      expect(guards, id).toHaveLength(1);
      const [guard] = guards;
      expect(guard.Effect, id).toBe('Deny');
      expect([guard.Action].flat().sort(), id).toEqual([...(id === writer ? AUDIT_WRITER_DENIED_ACTIONS : AUDIT_DENIED_ACTIONS)].sort());
      expect(guard.Resource, id).toEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
      const patterns = guard.Condition['ForAnyValue:StringLike']['dynamodb:LeadingKeys'];
      expect(Object.keys(guard.Condition), id).toEqual(['ForAnyValue:StringLike']);
      // It covers the audit partition of any workspace, and nothing else the service keeps: not the intents.
      expect([patterns].flat().flatMap(admittedBy), id).toEqual(['auditRecord']);
      for (const p of [patterns].flat()) {
        expect(iamLike(p).test(keys.auditRecord('any-tenant', 'T#x').PK), id).toBe(true);
        expect(iamLike(p).test(keys.auditIntent('any-tenant', '3', 'x').PK), id).toBe(false);
      }
      // An Allow naming the audit partitions: only the writer's, PutItem only.
      const allows = statementsOf(id).filter((st) => JSON.stringify(st.Condition ?? {}).includes(JSON.stringify(auditPattern)));
      if (id !== writer) expect(allows, id).toEqual([]);
      else {
        expect(allows, id).toHaveLength(1);
        expect([allows[0].Action].flat(), id).toEqual(['dynamodb:PutItem']);
        expect(allows[0].Condition, id).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': AUDIT_LEADING_KEYS } });
      }
    }
  });
});
