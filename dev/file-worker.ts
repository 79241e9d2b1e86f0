/**
 * The file worker of `npm start`: the local S3 emits an S3 event for each object created, as the
 * deployed bucket's notification does, and the events under `files/` (an attached file) run
 * functions/file-worker.ts, the module Lambda runs, one at a time in arrival order. A failed run
 * is tried again twice, as Lambda retries an asynchronous invocation. What it did goes to the
 * console as ids and outcomes only.
 */
import type { LocalS3 } from './s3';
import { lambdaContext } from './events';
import { invocation } from './invocation';

const TRIES = 3;

export function startFileWorker(s3: LocalS3, log: (line: string) => void): { idle(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  s3.onObjectCreated((event) => {
    const records = event.Records.filter((r) => r.s3.object.key.startsWith('files/'));
    if (!records.length) return;
    chain = chain.then(async () => {
      const { handler } = await import('../functions/file-worker');
      for (let attempt = 1; attempt <= TRIES; attempt++) {
        const context = lambdaContext('file-worker', 60_000);
        try {
          await invocation(context.awsRequestId, () => handler({ Records: records } as never, context));
          return;
        } catch (err) {
          log(`file worker: run ${attempt} of ${TRIES} failed: ${(err as Error).name}`);
        }
      }
    });
  });
  return { idle: () => chain };
}
