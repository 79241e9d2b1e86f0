/**
 * The files and email modules as the stack bundles them (esbuild, BUNDLING, LAMBDA_ALIASES), run
 * by plain Node in a child process against the local S3 and SES: a presigned POST, HeadObject,
 * every-version deletion and SendEmail all work from the bundle. The aliases swap SDK internals
 * for stand-ins (lib/aws/), and the S3 client builds its event-stream marshaller when
 * constructed: a stand-in missing it made every bundle that holds the S3 client fail to build.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalSes, sentMail, startLocalSes } from '../../../dev/ses';
import { BUNDLING, LAMBDA_ALIASES, PROJECT_ROOT } from '../../../infra/constructs/table-function';
import { useLocalS3 } from '../../helpers/local-s3';

const local = useLocalS3();
let ses: LocalSes;
let dir: string;
let bundle: string;

beforeAll(async () => {
  ses = await startLocalSes();
  dir = mkdtempSync(join(tmpdir(), 'tp-files-bundle-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    ['presign.ts', 'storage.ts']
      .map((m) => `export * from ${JSON.stringify(join(PROJECT_ROOT, 'lib/files', m))};`)
      .concat(`export { sendEmail } from ${JSON.stringify(join(PROJECT_ROOT, 'lib/email/send.ts'))};`)
      .join('\n'),
  );
  bundle = join(dir, 'bundle.mjs');
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner! },
    alias: LAMBDA_ALIASES,
    absWorkingDir: PROJECT_ROOT,
    logLevel: 'error',
  });
}, 120_000);

afterAll(async () => {
  await ses?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the bundled files and email modules', () => {
  it('upload by presigned POST, HeadObject, delete every version, send an email', async () => {
    const script = join(dir, 'run.mjs');
    writeFileSync(
      script,
      `const m = await import(${JSON.stringify(bundle)});
const body = new TextEncoder().encode('Ada Lovelace\\n');
const up = await m.presignUpload({ tenantId: 't', uploadId: 'u', contentType: 'text/plain', size: body.length });
const form = new FormData();
for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
form.append('file', new Blob([body]), 'cv.txt');
const posted = (await fetch(up.url, { method: 'POST', body: form })).status;
const head = await m.headObject(up.key);
const deleted = await m.deleteEveryVersion(up.key);
const after = await m.headObject(up.key);
const sent = await m.sendEmail({ to: ['ada@example.com'], subject: 'Bundled', text: 't', html: '<p>t</p>' });
console.log(JSON.stringify({ posted, head, deleted, after: after ?? null, messageId: sent.messageId }));
`,
    );
    // Asynchronously: the local S3 and SES answer from this process, so it must not block on the child.
    const child = spawn(process.execPath, [script], {
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'eu-west-1',
        FILES_BUCKET: local.s3().bucket,
        S3_ENDPOINT: local.s3().endpoint,
        SES_ENDPOINT: ses.endpoint,
        MAIL_FROM: 'no-reply@talent.example',
      },
    });
    const run = { stdout: '', stderr: '', status: null as number | null };
    child.stdout.on('data', (d) => (run.stdout += d));
    child.stderr.on('data', (d) => (run.stderr += d));
    run.status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout.trim());
    expect(out).toMatchObject({ head: { size: 13, contentType: 'text/plain' }, deleted: 1, after: null });
    expect(out.posted).toBeLessThan(300);
    expect((await sentMail(ses.endpoint)).map((m) => m.messageId)).toContain(out.messageId);
  });
});
