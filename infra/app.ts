/** CDK app entry (cdk.json: `npx tsx infra/app.ts`). */
import { execFileSync } from 'node:child_process';
import { App } from 'aws-cdk-lib';
import { ensureConsoleBuilt } from './console-site';
import { DEFAULT_CONSOLE_DIR } from './local/console-files';
import { PROJECT_ROOT, TalentPipelineStack } from './stack';

// Build before synth: the BucketDeployment uploads console/dist, and synth stays offline.
ensureConsoleBuilt(DEFAULT_CONSOLE_DIR, () =>
  // The CDK CLI reads the app's stdout; npm's output goes to stderr.
  execFileSync('npm', ['run', 'build:console'], { cwd: PROJECT_ROOT, stdio: ['ignore', process.stderr, process.stderr] }),
);

const app = new App();

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

new TalentPipelineStack(app, 'TalentPipeline', {
  description: 'Talent pipeline: multi-tenant hiring-pipeline API and workspace console',
  consoleDir: DEFAULT_CONSOLE_DIR,
  // Environment-agnostic unless the CLI resolved an account or region.
  env: account || region ? { account, region } : undefined,
});

app.synth();
