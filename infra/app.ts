/** CDK app entry (cdk.json: `npx tsx infra/app.ts`). */
import { App } from 'aws-cdk-lib';
import { CONSOLE_DIST, ensureConsoleBuilt } from '../console/build';
import { TalentPipelineStack } from './stack';

// Build before synth, so that synth stays offline and the BucketDeployment uploads the console
// of these sources (rebuilt when any changed since the last build).
const built = await ensureConsoleBuilt();
if (built.status === 'failed') throw new Error(`The console could not be built, so it cannot be deployed: ${built.error}`);

const app = new App();

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

new TalentPipelineStack(app, 'TalentPipeline', {
  description: 'Talent pipeline: multi-tenant hiring-pipeline API and workspace console',
  consoleDir: CONSOLE_DIST,
  // Environment-agnostic unless the CLI resolved an account or region.
  env: account || region ? { account, region } : undefined,
});

app.synth();
