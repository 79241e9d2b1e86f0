/**
 * The retention run of `npm start` (the deployed stack's is a daily EventBridge schedule): the
 * same function, every RETENTION_INTERVAL_MINUTES (60 unless set; 0 turns it off), first once the
 * interval has passed. What it did goes to the console as counts.
 */
import { lambdaContext } from './events';
import { invocation } from './invocation';

export function startRetentionTimer(log: (line: string) => void): { stop(): void } {
  const raw = process.env.RETENTION_INTERVAL_MINUTES ?? '60';
  const minutes = /^\d+$/.test(raw) ? Number(raw) : 60;
  if (minutes === 0) {
    log('retention rules: timer off (RETENTION_INTERVAL_MINUTES=0)');
    return { stop() {} };
  }
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const [{ handler }, { RETENTION_TIMEOUT_S }] = await Promise.all([import('../functions/retention'), import('../lib/model')]);
      const context = lambdaContext('retention', RETENTION_TIMEOUT_S * 1000);
      const total = await invocation(context.awsRequestId, () => handler({}, context));
      if (total.erased || total.resweep) log(`retention rules: ${total.erased} candidates erased in ${total.workspaces} workspaces`);
    } catch (err) {
      log(`retention rules: the run failed: ${(err as Error).message}`);
    } finally {
      running = false;
    }
  }, minutes * 60_000);
  timer.unref();
  log(`retention rules run every ${minutes} minutes (npm run admin -- retention run <slug> runs them now)`);
  return { stop: () => clearInterval(timer) };
}
