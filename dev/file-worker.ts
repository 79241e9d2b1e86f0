/**
 * The file worker of `npm start`: the local S3 tells of each object created, and those under
 * `files/` (an attached file) or `uploads/` (an upload, checked when issued for a new person) run functions/file-worker.ts, the module Lambda runs, with the
 * EventBridge "Object Created" event the deployed bucket sends (infra/constructs/file-worker.ts),
 * one at a time in arrival order. A failed run is tried again twice, as the rule's target retries
 * deployed. What it did goes to the console as ids and outcomes only.
 */
import { lambdaContext } from './events';
import { invocation } from './invocation';
import type { LocalS3 } from './s3';

const TRIES = 3;

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

export function startFileWorker(s3: LocalS3, log: (line: string) => void): { idle(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  s3.onObjectCreated(({ key, size }) => {
    if (!key.startsWith('files/') && !key.startsWith('uploads/')) return;
    chain = chain.then(async () => {
      const { handler } = await import('../functions/file-worker');
      for (let attempt = 1; attempt <= TRIES; attempt++) {
        const context = lambdaContext('file-worker', 60_000);
        try {
          await invocation(context.awsRequestId, () => handler(objectCreatedEvent(s3.bucket, key, size) as never, context));
          return;
        } catch (err) {
          log(`file worker: run ${attempt} of ${TRIES} failed: ${(err as Error).name}`);
        }
      }
    });
  });
  return { idle: () => chain };
}
