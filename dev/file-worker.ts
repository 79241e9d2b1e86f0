/**
 * The file worker of `npm start`: the local S3 tells of each object created, and those under
 * `files/` (an attached file) or `uploads/` (an upload, checked when issued for a new person) run
 * functions/file-worker.ts, the module Lambda runs, with the EventBridge "Object Created" event the
 * deployed bucket sends (infra/constructs/file-worker.ts), one at a time in arrival order. A run
 * happens in a worker thread (dev/file-worker-thread.ts), so a large PDF's parse never stops the
 * local gateway answering, and is stopped at the deployed function's time limit, as Lambda stops
 * it. A failed or stopped run is tried again twice, as the rule's target retries deployed. What it
 * did goes to the console as ids and outcomes only.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LocalS3 } from './s3';

const TRIES = 3;
/** The deployed function's timeout (infra/constructs/file-worker.ts). */
export const FILE_WORKER_TIMEOUT_MS = 60_000;

/** The event EventBridge delivers for an object S3 created (the fields the worker reads, and their neighbours). */
export const objectCreatedEvent = (bucket: string, key: string, size: number, at = new Date()) => ({
  version: '0',
  id: crypto.randomUUID(),
  'detail-type': 'Object Created',
  source: 'aws.s3',
  account: '000000000000',
  time: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: 'us-east-1',
  resources: [`arn:aws:s3:::${bucket}`],
  detail: { version: '0', bucket: { name: bucket }, object: { key, size }, reason: 'CopyObject' },
});

/** The hold's states (FileWorkerOptions.hold): held before a run, let go by the test, resumed by the holder. */
export const HELD = 1;
export const RELEASED = 2;
export const RESUMED = 3;

/**
 * Tests: block the calling thread, as a long parse does, until the test releases it or `maxMs`
 * passed; then mark it resumed, so a test can tell what it saw while the run was still held.
 */
export function holdRun(hold: SharedArrayBuffer, maxMs: number): void {
  const flag = new Int32Array(hold);
  Atomics.store(flag, 0, HELD);
  Atomics.notify(flag, 0);
  Atomics.wait(flag, 0, HELD, maxMs);
  Atomics.store(flag, 0, RESUMED);
}

export interface FileWorkerOptions {
  /** How long a run may take before its thread is stopped (default the deployed 60 s). */
  timeoutMs?: number;
  /** Tests: hold each run in its thread until released (dev/file-worker-thread.ts). */
  hold?: SharedArrayBuffer;
}

/**
 * The thread's entry, loaded through tsx in the thread itself (a thread does not inherit the
 * loader the main thread was started with).
 */
const threadCode = () => {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const entry = new URL('./file-worker-thread.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
};

/** One thread, started when first needed (with the environment as it then is), replaced when it is stopped or dies. */
function threadRunner(opts: FileWorkerOptions) {
  let thread: { worker: Worker; ready: Promise<void> } | undefined;
  let next = 0;
  const pending = new Map<number, (error?: string) => void>();
  const start = () => {
    const worker = new Worker(threadCode(), { eval: true, workerData: { fileWorker: true, hold: opts.hold } });
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: { ready?: true; id?: number; error?: string }) => {
        if (m.ready) return resolve();
        pending.get(m.id!)?.(m.error);
        pending.delete(m.id!);
      });
      const gone = (why: string) => {
        if (thread?.worker === worker) thread = undefined;
        reject(new Error(why));
        for (const [id, settle] of pending) {
          settle(why);
          pending.delete(id);
        }
      };
      worker.on('error', (err) => gone(err.name));
      worker.on('exit', () => gone('ThreadExited'));
    });
    return { worker, ready };
  };
  return {
    /** One run: undefined when it succeeded, else why it failed (an error's name, or TimedOut). */
    async run(event: unknown): Promise<string | undefined> {
      thread ??= start();
      const current = thread;
      await current.ready;
      const timeoutMs = opts.timeoutMs ?? FILE_WORKER_TIMEOUT_MS;
      const id = next++;
      return new Promise<string | undefined>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          if (thread === current) thread = undefined;
          void current.worker.terminate();
          resolve('TimedOut');
        }, timeoutMs);
        pending.set(id, (error) => {
          clearTimeout(timer);
          resolve(error);
        });
        current.worker.postMessage({ id, event, timeoutMs });
      });
    },
    async stop() {
      const current = thread;
      thread = undefined;
      await current?.worker.terminate();
    },
  };
}

export function startFileWorker(
  s3: LocalS3,
  log: (line: string) => void,
  opts: FileWorkerOptions = {},
): { idle(): Promise<void>; stop(): Promise<void> } {
  const runner = threadRunner(opts);
  let chain: Promise<void> = Promise.resolve();
  s3.onObjectCreated(({ key, size }) => {
    if (!key.startsWith('files/') && !key.startsWith('uploads/')) return;
    chain = chain.then(async () => {
      for (let attempt = 1; attempt <= TRIES; attempt++) {
        const failed = await runner.run(objectCreatedEvent(s3.bucket, key, size)).catch((err: Error) => err.message);
        if (!failed) return;
        log(`file worker: run ${attempt} of ${TRIES} failed: ${failed}`);
      }
    });
  });
  return {
    idle: () => chain,
    stop: async () => {
      await chain;
      await runner.stop();
    },
  };
}
