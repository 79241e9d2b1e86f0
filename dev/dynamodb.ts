/**
 * Runs the real AWS DynamoDB Local jar (shipped inside the amplify-dynamodb-simulator npm
 * package) with the machine's Java. Nothing is downloaded at run time. We own the Java
 * process and stop it ourselves: signals to a wrapper do not always reach it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const emulatorDir = () => join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = new Socket();
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => {
      s.destroy();
      resolve(false);
    });
    s.connect(port, '127.0.0.1');
  });

/** Start DynamoDB Local. `dbPath` persists data there; without it the data lives in memory. */
export async function startDynamoDbLocal(opts: { dbPath?: string; port?: number } = {}): Promise<DynamoDbLocal> {
  const port = opts.port ?? (await freePort());
  const dir = emulatorDir();
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-Xms64m',
    // C1 only: the JIT's second tier (C2) spends more CPU compiling than it saves in a run of
    // minutes on two cores. Measured: DynamoDB Local's CPU per webhook delivery 2.8 -> 1.3 ms
    // (`npm run bench`), and two integration test files' CPU 29.5 -> 18.3 s.
    '-XX:TieredStopAtLevel=1',
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    // One database for every access key and region, so credentials never matter locally.
    '-sharedDb',
    // No telemetry from a local tool (and no outbound connection attempts on closed networks).
    '-disableTelemetry',
    ...(opts.dbPath ? ['-dbPath', opts.dbPath] : ['-inMemory']),
  ];
  // DynamoDB Local writes a metadata file into its working directory: keep it out of the repo.
  const java: ChildProcess = spawn('java', args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: opts.dbPath ?? tmpdir() });
  // Our exit, a crash or a stop before Java is ready included, must not leave Java behind.
  process.once('exit', () => {
    if (java.exitCode === null && java.signalCode === null) java.kill('SIGKILL');
  });
  let stderr = '';
  java.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => java.once('exit', (code) => resolve(code)));
  const spawnError = new Promise<Error>((resolve) => java.once('error', resolve));

  const deadline = Date.now() + 30_000;
  for (;;) {
    const failed = await Promise.race([
      exited.then((code) => new Error(`DynamoDB Local exited with code ${code}: ${stderr.trim()}`)),
      spawnError.then((e) => new Error(`Could not start java (is Java 17 installed?): ${e.message}`)),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)),
    ]);
    if (failed) throw failed;
    if (await canConnect(port)) break;
    if (Date.now() > deadline) {
      java.kill('SIGKILL');
      throw new Error(`DynamoDB Local did not listen on port ${port} within 30 s`);
    }
  }

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (java.exitCode !== null || java.signalCode !== null) return;
      java.kill('SIGTERM');
      const timer = setTimeout(() => java.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    })());
  return { endpoint: `http://127.0.0.1:${port}`, port, pid: java.pid!, stop };
}

/** True when `pid` is a live DynamoDB Local Java process (used to clear a stale one). */
export function isDynamoDbLocalProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal.jar');
  } catch {
    return false; // cannot tell (no /proc): never kill what might be someone else's process
  }
}
