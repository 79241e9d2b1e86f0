/**
 * cdk-nag's AwsSolutions pack over the synthesized stack: no finding may be left unacknowledged.
 * Every acknowledgement sits on the construct it concerns, with its reason (infra/ Validations.of
 * calls). A failure prints each finding: rule, construct path, and what it says. Template
 * synthesis only, no bundling: the rules read the template, not the code.
 *
 * The default stack is checked with a careless queue added to it, in one synth for two tests: the
 * AwsSolutions rules judge each resource on its own, so the queue's findings name only the queue,
 * and every other finding is the default stack's.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { TalentPipelineStack, type TalentPipelineStackProps } from '../../infra/stack';

const CONSOLE_DIR = mkdtempSync(path.join(tmpdir(), 'nag-test-console-'));
mkdirSync(path.join(CONSOLE_DIR, 'assets'));
writeFileSync(path.join(CONSOLE_DIR, 'index.html'), '<!doctype html><title>Talent Pipeline</title>');
const dirs: string[] = [];

afterAll(() => {
  for (const d of [...dirs, CONSOLE_DIR]) rmSync(d, { recursive: true, force: true });
});

interface Finding {
  rule: string;
  severity: string;
  path: string;
  description: string;
}

/** Synthesizes one stack under AwsSolutionsChecks; the findings nothing acknowledged. */
function nag(props: Partial<TalentPipelineStackProps>, addToStack?: (stack: TalentPipelineStack) => void): Finding[] {
  const outdir = mkdtempSync(path.join(tmpdir(), 'nag-test-'));
  dirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new TalentPipelineStack(app, 'TalentPipeline', { consoleDir: CONSOLE_DIR, ...props });
  addToStack?.(stack);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
  } catch (err) {
    // A failed validation throws after writing its report into the cloud assembly.
    const reportFile = path.join(outdir, 'validation-report.json');
    if (!existsSync(reportFile)) throw err;
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    return report.pluginReports.flatMap(
      (p: {
        violations: Array<{
          ruleName: string;
          severity: string;
          description: string;
          violatingConstructs: Array<{ constructPath: string }>;
        }>;
      }) =>
        p.violations.flatMap((v) =>
          v.violatingConstructs.map((c) => ({ rule: v.ruleName, severity: v.severity, path: c.constructPath, description: v.description })),
        ),
    );
  }
  return [];
}

const show = (findings: Finding[]) => findings.map((f) => `${f.severity} ${f.rule} at ${f.path}: ${f.description}`).join('\n');

const CARELESS = 'TalentPipeline/CarelessQueue';
let defaultWithCareless: Finding[] | undefined;
/** The default stack plus a queue without a DLQ, unencrypted and open to plain HTTP: three AwsSolutions errors. */
const defaultStackFindings = () => {
  defaultWithCareless ??= nag({}, (stack) => {
    new sqs.Queue(stack, 'CarelessQueue', { encryption: sqs.QueueEncryption.UNENCRYPTED, enforceSSL: false });
  });
  return {
    careless: defaultWithCareless.filter((f) => f.path.startsWith(CARELESS)),
    rest: defaultWithCareless.filter((f) => !f.path.startsWith(CARELESS)),
  };
};

describe('cdk-nag AwsSolutions', () => {
  it('the default stack (prod, WAF on) has no unacknowledged error or warning', () => {
    const { rest } = defaultStackFindings();
    expect(rest, `unacknowledged cdk-nag findings:\n${show(rest)}`).toEqual([]);
  }, 120_000);

  it('a dev stack with WAF switched off has none either (APIG3 acknowledged for the flag)', () => {
    const findings = nag({ stage: 'dev', waf: false });
    expect(findings, `unacknowledged cdk-nag findings:\n${show(findings)}`).toEqual([]);
  }, 120_000);

  it('with malware protection, a mail domain, and functions given file access and sending, none either', () => {
    const findings = nag({ malwareProtection: true, mailDomain: 'talent.example' }, (stack) => {
      // A route function (in a nested stack) and a function of the stack itself, as the file routes and worker will be.
      const route = stack.functions.get('get-candidate')!;
      stack.files.grantFiles(route, 'read');
      stack.files.grantFiles(route, 'write');
      stack.files.grantFiles(route, 'delete');
      stack.mail.allowSending(route);
      stack.files.grantFiles(stack.functions.get('retention')!, 'read', { beforeScan: true });
    });
    expect(findings, `unacknowledged cdk-nag findings:\n${show(findings)}`).toEqual([]);
  }, 120_000);

  it('the check is live: an unacknowledged gap in the same stack is reported with its construct', () => {
    const { careless, rest } = defaultStackFindings();
    expect(careless.map((f) => f.rule).sort()).toEqual(['AwsSolutions-SQS2', 'AwsSolutions-SQS3', 'AwsSolutions-SQS4']);
    expect(rest).toEqual([]);
  }, 120_000);
});
