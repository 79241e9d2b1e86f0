/**
 * CDK app entry (cdk.json: `npx tsx infra/app.ts`). Context flags (docs/deploying.md):
 *   -c stage=dev|prod       the stack TalentPipeline-<stage>; default dev
 *   -c waf=false            no web ACL on the API stage; default on
 *   -c alarmEmail=<address> subscribe an address to the alarm topic (it must confirm by email)
 *   -c malwareProtection=true  GuardDuty Malware Protection for S3 on the files bucket; default off
 *   -c mailDomain=<domain> [-c mailFrom=<address>]  the SES identity email is sent from
 */
import { App } from 'aws-cdk-lib';
import { CONSOLE_DIST, ensureConsoleBuilt } from '../console/build';
import { TalentPipelineStack } from './stack';
import { flag, stageNamed } from './stages';

const app = new App();
// Checked before the console build, so that a mistyped flag fails at once.
const stage = stageNamed(app.node.tryGetContext('stage') ?? 'dev');
const waf = flag(app.node.tryGetContext('waf'), true);
const malwareProtection = flag(app.node.tryGetContext('malwareProtection'), false);
const mailDomain: unknown = app.node.tryGetContext('mailDomain');
if (mailDomain !== undefined && (typeof mailDomain !== 'string' || !/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/i.test(mailDomain))) {
  throw new Error(`-c mailDomain must be a domain name, got ${JSON.stringify(mailDomain)}`);
}
const mailFrom: unknown = app.node.tryGetContext('mailFrom');
if (mailFrom !== undefined && (typeof mailFrom !== 'string' || mailDomain === undefined)) {
  throw new Error('-c mailFrom needs -c mailDomain, and must be an address in it');
}
const alarmEmail: unknown = app.node.tryGetContext('alarmEmail');
if (alarmEmail !== undefined && (typeof alarmEmail !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail))) {
  throw new Error(`-c alarmEmail must be an email address, got ${JSON.stringify(alarmEmail)}`);
}

// Build before synth, so that synth stays offline and the BucketDeployment uploads the console
// of these sources (rebuilt when any changed since the last build).
const built = await ensureConsoleBuilt();
if (built.status === 'failed') throw new Error(`The console could not be built, so it cannot be deployed: ${built.error}`);

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

new TalentPipelineStack(app, `TalentPipeline-${stage}`, {
  description: `Talent pipeline (${stage}): multi-tenant hiring-pipeline API and workspace console`,
  consoleDir: CONSOLE_DIST,
  stage,
  waf,
  malwareProtection,
  mailDomain: mailDomain as string | undefined,
  mailFrom: mailFrom as string | undefined,
  alarmEmail,
  // Environment-agnostic unless the CLI resolved an account or region.
  env: account || region ? { account, region } : undefined,
});

app.synth();
