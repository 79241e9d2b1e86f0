/**
 * The retention runs of `npm start` (the deployed stack's are EventBridge schedules), the same
 * function as deployed:
 * - the rules, every RETENTION_INTERVAL_MINUTES (60 unless set; 0 turns them off), first once the
 *   interval has passed;
 * - the erasures' follow-up sweeps, every minute as deployed (an erasure's own; not switched off
 *   with the rules).
 * What they did goes to the console as counts.
 */
import { ERASURE_FOLLOW_UP_KIND } from '../lib/model';
import { lambdaContext } from './events';
import { invocation } from './invocation';

/** How often the due follow-up sweeps run, as the stack's schedule runs them. */
const FOLLOW_UP_EVERY_MS = 60_000;

/** Run the retention function every `ms` with `event`, one run at a time; `done` reports its result. */
function every<R>(ms: number, event: unknown, done: (result: R) => void, failed: (err: Error) => void) {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const [{ handler }, { RETENTION_TIMEOUT_S }] = await Promise.all([import('../functions/retention'), import('../lib/model')]);
      const context = lambdaContext('retention', RETENTION_TIMEOUT_S * 1000);
      done((await invocation(context.awsRequestId, () => handler(event as never, context))) as R);
    } catch (err) {
      failed(err as Error);
    } finally {
      running = false;
    }
  }, ms);
  timer.unref();
  return timer;
}

export function startRetentionTimer(log: (line: string) => void): { stop(): void } {
  const followUps = every<{ swept: number; scrubbed: number }>(
    FOLLOW_UP_EVERY_MS,
    { kind: ERASURE_FOLLOW_UP_KIND },
    (r) => r.scrubbed && log(`erasure follow-ups: ${r.scrubbed} more copies scrubbed for ${r.swept} erasures`),
    (err) => log(`erasure follow-ups: the run failed: ${err.message}`),
  );
  const raw = process.env.RETENTION_INTERVAL_MINUTES ?? '60';
  const minutes = /^\d+$/.test(raw) ? Number(raw) : 60;
  if (minutes === 0) {
    log('retention rules: timer off (RETENTION_INTERVAL_MINUTES=0)');
    return { stop: () => clearInterval(followUps) };
  }
  const rules = every<{ workspaces: number; erased: number; resweep: number }>(
    minutes * 60_000,
    {},
    (total) => {
      if (total.erased || total.resweep) log(`retention rules: ${total.erased} candidates erased in ${total.workspaces} workspaces`);
    },
    (err) => log(`retention rules: the run failed: ${err.message}`),
  );
  log(`retention rules run every ${minutes} minutes (npm run admin -- retention run <slug> runs them now)`);
  return {
    stop: () => {
      clearInterval(rules);
      clearInterval(followUps);
    },
  };
}
