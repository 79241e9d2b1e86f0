/**
 * A scheduled run of `npm start`: the same functions as the deployed EventBridge schedules invoke,
 * on an interval, one tick at a time (a slow run is not started twice), each function's counts
 * reported to the console by the caller's `report`. The timer is unref'd, so the one signal that
 * stops `npm start` stops it.
 */
import { lambdaContext } from './events';
import { invocation } from './invocation';

type Handler = (event: never, context: never) => Promise<unknown>;

export interface ScheduledRun {
  /** The function's module under functions/ (or, for a local run of no function, its name). */
  module: string;
  load: () => Promise<{ handler: Handler }>;
  /** A console line for what the run did, or nothing to say. */
  report: (counts: Record<string, number>) => string | undefined;
}

/** The interval in seconds from `variable` (whole seconds; 0 turns the timer off), or `fallback`. */
function intervalSeconds(variable: string, fallback: number): number {
  const raw = process.env[variable] ?? String(fallback);
  return /^\d+$/.test(raw) ? Number(raw) : fallback;
}

/**
 * `every`: milliseconds, or whole seconds read from the environment variable `variable` (`seconds`
 * unless set; 0 turns the timer off, which the log says). `atStart`: a first tick at once, for a run
 * that must not wait a whole interval after a restart.
 */
export function startScheduledTimer(
  name: string,
  every: number | { variable: string; seconds: number },
  runs: ScheduledRun[],
  log: (line: string) => void,
  opts: { atStart?: boolean } = {},
): { stop(): void } {
  const everyMs = typeof every === 'number' ? every : intervalSeconds(every.variable, every.seconds) * 1000;
  if (everyMs === 0) {
    log(`${name}: timer off (${typeof every === 'number' ? 'interval' : every.variable}=0)`);
    return { stop: () => {} };
  }
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const run of runs) {
        try {
          const { handler } = await run.load();
          const context = lambdaContext(run.module, 120_000);
          const counts = (await invocation(context.awsRequestId, () => handler({} as never, context as never))) as Record<string, number>;
          const line = run.report(counts);
          if (line) log(`${name}: ${line}`);
        } catch (err) {
          log(`${name}: ${run.module} failed: ${(err as Error).message}`);
        }
      }
    } finally {
      running = false;
    }
  };
  if (opts.atStart) void tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
