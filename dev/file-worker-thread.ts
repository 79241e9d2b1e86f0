/**
 * The thread the local file worker runs functions/file-worker.ts in (dev/file-worker.ts): the
 * byte check and the text extraction are CPU work, synchronous for seconds on a large PDF, and in
 * the main thread they would stop the local gateway answering. One run at a time: a message
 * `{ id, event, timeoutMs }` in, `{ id, error? }` out (the error's name only: never a message
 * that could hold a value of the file).
 *
 * `workerData.hold` (tests only): before each run the thread blocks, synchronously as a long parse
 * does, until the test releases it (holdRun in dev/file-worker.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lambdaContext } from './events';
import { holdRun } from './file-worker';
import { invocation } from './invocation';

type Run = { id: number; event: unknown; timeoutMs: number };

const data = workerData as { fileWorker?: true; hold?: SharedArrayBuffer } | undefined;
const port = data?.fileWorker ? parentPort : null;
if (port) {
  const { handler } = await import('../functions/file-worker');
  const hold = data?.hold;
  port.on('message', async ({ id, event, timeoutMs }: Run) => {
    if (hold) holdRun(hold, timeoutMs);
    const context = lambdaContext('file-worker', timeoutMs);
    try {
      await invocation(context.awsRequestId, () => handler(event as never, context));
      port.postMessage({ id });
    } catch (err) {
      port.postMessage({ id, error: (err as Error).name ?? 'Error' });
    }
  });
  port.postMessage({ ready: true });
}
