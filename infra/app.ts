/** CDK app entry (cdk.json: `npx tsx infra/app.ts`). */
import { App } from 'aws-cdk-lib';
import { TalentPipelineStack } from './stack';

const app = new App();

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

new TalentPipelineStack(app, 'TalentPipeline', {
  description: 'Talent pipeline: multi-tenant hiring-pipeline API',
  // Environment-agnostic unless the CLI resolved an account or region.
  env: account || region ? { account, region } : undefined,
});

app.synth();
