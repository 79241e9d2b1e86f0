/**
 * The interview invitations' worker (infra/constructs/interview-invitations.ts), synthesized with
 * and without a mail domain: with one, a nested stack holds the encrypted queue with its
 * dead-letter queue and alarm, and the worker, which alone may send from the stack's address and
 * is invoked by the queue with per-message failures; the fan-out alone may queue, and is told
 * where. Without one, none of it exists and the fan-out is given no queue.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FANOUT_MODULE } from '../../../infra/constructs/webhook-pipeline';
import { TalentPipelineStack, type TalentPipelineStackProps } from '../../../infra/stack';
import { flattenedTemplate } from '../../helpers/stack-templates';

type Json = any;
type CfnResource = { Type: string; Properties: Json };
const ofType = (type: string, res: Record<string, CfnResource>) => Object.entries(res).filter(([, r]) => r.Type === type);
const pascal = (module: string) =>
  module
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
/** Logical ids named by `Fn::GetAtt` anywhere inside a value. */
const getAtts = (value: Json): string[] =>
  Array.isArray(value)
    ? value.flatMap(getAtts)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => (k === 'Fn::GetAtt' && Array.isArray(v) ? [String(v[0])] : getAtts(v)))
      : [];

// Synthesized here, without bundling and without the shared stack's: only these templates matter.
const root = mkdtempSync(join(tmpdir(), 'tp-invitations-stack-'));
const consoleDir = join(root, 'console');
mkdirSync(consoleDir, { recursive: true });
writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Talent Pipeline</title>');
afterAll(() => rmSync(root, { recursive: true, force: true }));
function synthTemplate(props: Partial<TalentPipelineStackProps>): Record<string, CfnResource> {
  const outdir = mkdtempSync(join(root, 'out-'));
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new TalentPipelineStack(app, 'Invitations', { consoleDir, ...props });
  return flattenedTemplate(app.synth().directory, stack.artifactId).Resources;
}

const fnByModule = (res: Record<string, CfnResource>, module: string) =>
  ofType('AWS::Lambda::Function', res).filter(([id]) => id.startsWith(`${pascal(module)}Fn`));
const worker = (res: Record<string, CfnResource>) =>
  ofType('AWS::Lambda::Function', res).filter(([, f]) => String(f.Properties.Description ?? '').startsWith('Interview invitations'));
const statementsNaming = (res: Record<string, CfnResource>, fnId: string) => {
  const role = getAtts(res[fnId]!.Properties.Role)[0];
  return ofType('AWS::IAM::Policy', res)
    .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(role!))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[]);
};

describe('interview invitations in the stack', () => {
  let withMail: Record<string, CfnResource>;
  let without: Record<string, CfnResource>;
  beforeAll(() => {
    withMail = synthTemplate({ mailDomain: 'talent.example' });
    without = synthTemplate({});
  }, 300_000);

  it('with a mail domain: the worker sends from the stack address only, invoked by its queue with per-message failures', () => {
    const found = worker(withMail);
    expect(found).toHaveLength(1);
    const [id, fn] = found[0]!;
    expect(fn.Properties.Environment.Variables.MAIL_FROM).toBe('no-reply@talent.example');
    // The applicants' confirmations: the key their withdraw links are signed with, and the site they point at.
    expect(JSON.stringify(fn.Properties.Environment.Variables.FORM_TOKEN_SECRET)).toContain('resolve:secretsmanager');
    expect(fn.Properties.Environment.Variables.CONSOLE_URL).toBeDefined();
    expect(fn.Properties.Timeout).toBe(30);
    const ses = statementsNaming(withMail, id).filter((s) => [s.Action].flat().includes('ses:SendEmail'));
    expect(ses).toHaveLength(1);
    expect(ses[0].Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@talent.example' } });
    const mappings = ofType('AWS::Lambda::EventSourceMapping', withMail).filter(
      ([, m]) => getAtts(m.Properties.FunctionName).includes(id) || JSON.stringify(m.Properties.FunctionName).includes(id),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]![1].Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const queueId = getAtts(mappings[0]![1].Properties.EventSourceArn)[0]!;
    const queue = withMail[queueId]!;
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(queue.Properties.RedrivePolicy.maxReceiveCount).toBe(5);
    expect(queue.Properties.VisibilityTimeout).toBe(180);
    const dlqId = getAtts(queue.Properties.RedrivePolicy.deadLetterTargetArn)[0]!;
    const alarms = ofType('AWS::CloudWatch::Alarm', withMail).filter(([, a]) =>
      JSON.stringify(a.Properties.Dimensions ?? []).includes(dlqId),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]![1].Properties.AlarmActions).toHaveLength(1);

    // The fan-out is told the queue, and may send to it; no route function may.
    const [[fanoutId, fanout]] = fnByModule(withMail, FANOUT_MODULE) as [[string, CfnResource]];
    expect(
      getAtts(fanout.Properties.Environment.Variables.INVITATION_QUEUE_URL).concat(
        JSON.stringify(fanout.Properties.Environment.Variables.INVITATION_QUEUE_URL),
      ),
    ).toEqual(expect.arrayContaining([expect.stringContaining(queueId)]));
    const senders = ofType('AWS::IAM::Policy', withMail)
      .filter(([, p]) =>
        (p.Properties.PolicyDocument.Statement as Json[]).some(
          (s) => [s.Action].flat().includes('sqs:SendMessage') && getAtts(s.Resource).includes(queueId),
        ),
      )
      .map(([, p]) => JSON.stringify(p.Properties.Roles));
    expect(senders).toHaveLength(1);
    expect(senders[0]).toContain(getAtts(withMail[fanoutId]!.Properties.Role)[0]);
  });

  it('without a mail domain: no worker, no queue, and the fan-out is given none', () => {
    expect(worker(without)).toEqual([]);
    const [[, fanout]] = fnByModule(without, FANOUT_MODULE) as [[string, CfnResource]];
    expect(fanout.Properties.Environment.Variables.INVITATION_QUEUE_URL).toBeUndefined();
  });
});
