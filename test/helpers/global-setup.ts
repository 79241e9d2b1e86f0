import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { localhostCertificate } from '../../dev/dev-receiver';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Self-signed cert (SAN: IP 127.0.0.1, IP ::1, DNS localhost) that the workers trust. */
    tls: { cert: string; key: string };
  }
}

/**
 * Test TLS receivers use a self-signed cert. The sender must trust it the way production trusts a
 * receiver: through the process CA store, not by turning verification off. Node reads
 * NODE_EXTRA_CA_CERTS only at process start, so it is set here, in the main process, before the
 * pool forks the workers: vitest builds each fork's env from `process.env` when it starts running
 * tests, which is after globalSetup has finished (test/integration/webhooks/send.test.ts asserts
 * the variable reached the worker).
 */
async function makeTestCert() {
  const pems = await localhostCertificate(1);
  const dir = mkdtempSync(join(tmpdir(), 'tp-test-tls-'));
  const certPath = join(dir, 'cert.pem');
  writeFileSync(certPath, pems.cert);
  return { dir, certPath, cert: pems.cert, key: pems.key };
}

/**
 * vitest.config.ts has two projects (the browser suite runs after the rest), and each runs this
 * setup in the same main process. NODE_EXTRA_CA_CERTS is one variable for every worker, so the
 * second project reuses the first one's certificate instead of replacing it.
 */
const SHARED_TLS = 'TP_TEST_TLS';

export default async function setup(project: TestProject) {
  const shared = process.env[SHARED_TLS];
  const owner = !shared;
  const tls = shared ? (JSON.parse(shared) as Awaited<ReturnType<typeof makeTestCert>>) : await makeTestCert();
  if (owner) process.env[SHARED_TLS] = JSON.stringify(tls);
  process.env.NODE_EXTRA_CA_CERTS = tls.certPath;
  project.provide('tls', { cert: tls.cert, key: tls.key });

  return () => {
    if (owner) rmSync(tls.dir, { recursive: true, force: true });
  };
}
