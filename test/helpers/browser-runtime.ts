/**
 * Global setup of the `browser` tier: one `npm start` per worker, shared by the browser files that
 * worker runs, each in a workspace of its own. Starting the runtime (a Node process, DynamoDB
 * Local's JVM, the local queues, S3 and SES) cost each file more CPU than most of its tests.
 *
 * The runtimes live in vitest's main process, not in the workers: started there on a worker's
 * first ask, they are stopped by this setup's teardown however the run ends, and a worker that is
 * killed leaves nothing behind. A worker asks over a loopback HTTP server whose address is
 * provided as `browserRuntime`:
 *   POST /runtime   { worker }          -> the worker's runtime (`SharedRuntime`), started if needed
 *   POST /workspace { runtime, label }  -> a fresh seeded workspace in it (seed-workspace.ts)
 * Every runtime runs with the settings any browser file needs (a 1 s authorizer cache, so a
 * revoked token stops working within a test); a file that needs other settings, or a runtime of
 * its own, starts one with e2eSandbox as the e2e files do.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { CHEAP_PASSWORDS, e2eSandbox, startBatch, type Batch, type Running } from './processes';
import type { SeededWorkspace } from './seed-workspace';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The loopback address of the shared browser runtimes' control server. */
    browserRuntime: string;
  }
}

export interface SharedRuntime {
  id: number;
  baseUrl: string;
  origin: string;
  /** `npm start`'s output up to its banner. */
  banner: string;
}

/**
 * The environment every shared runtime gets (vitest's project `env` reaches the workers only).
 * Passwords hashed at the test cost (CHEAP_PASSWORDS).
 */
export const RUNTIME_ENV = {
  ...CHEAP_PASSWORDS,
  AUTHORIZER_CACHE_TTL_SECONDS: '1',
  DYNAMODB_LOCAL_JIT: 'quick',
  POWERTOOLS_LOG_LEVEL: 'WARN',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export default async function setup(project: TestProject) {
  const sandbox = e2eSandbox();
  const runtimes: { dataDir: string; running: Promise<Running>; seeder?: Batch; info?: SharedRuntime }[] = [];
  const byWorker = new Map<string, number>();

  const runtime = async (worker: string): Promise<SharedRuntime> => {
    let id = byWorker.get(worker);
    if (id === undefined) {
      id = runtimes.length;
      byWorker.set(worker, id);
      const dataDir = sandbox.freshDir(`browser-${worker}`);
      runtimes.push({ dataDir, running: sandbox.startLocal(dataDir, 120_000, RUNTIME_ENV) });
    }
    const r = runtimes[id]!;
    const running = await r.running;
    r.info ??= { id, baseUrl: running.baseUrl, origin: new URL(running.baseUrl).origin, banner: running.stdout() };
    return r.info;
  };

  const workspace = async (id: number, label: string): Promise<SeededWorkspace> => {
    const r = runtimes[id];
    if (!r) throw new Error(`no runtime ${id}`);
    await r.running;
    // The seeder finds the runtime's table through its DATA_DIR (dev/runtime.ts useLocalTable).
    r.seeder ??= startBatch('test/helpers/seed-workspace.ts', r.dataDir, { env: RUNTIME_ENV });
    const out = await r.seeder.run([label]);
    if (out.code !== 0) throw new Error(`seeding a workspace failed:\n${out.stderr}`);
    return JSON.parse(out.stdout) as SeededWorkspace;
  };

  const server = createServer(async (req, res) => {
    try {
      const b = await body(req);
      const answer =
        req.url === '/runtime'
          ? await runtime(String(b.worker))
          : req.url === '/workspace'
            ? await workspace(Number(b.runtime), String(b.label))
            : undefined;
      if (answer === undefined) throw new Error(`unknown ${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(err instanceof Error ? (err.stack ?? err.message) : String(err));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  project.provide('browserRuntime', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);

  return async () => {
    server.close();
    await Promise.all(runtimes.map((r) => r.seeder?.close(10_000)));
    await sandbox.cleanup();
  };
}
