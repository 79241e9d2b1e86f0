/**
 * CloudWatch metrics in Embedded Metric Format (Powertools): one JSON log line per flush, turned
 * into metrics by CloudWatch Logs, so no PutMetricData call and no extra IAM. One per cold start.
 * Namespace `TalentPipeline`; the names are listed in docs/observability.md ("Metrics").
 * Every metric carries the `service` dimension, which is per stage when deployed (lib/env.ts
 * SERVICE_NAME), and the alarms and dashboard read their own stage's (infra/constructs/monitoring.ts).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricUnit as Unit } from '@aws-lambda-powertools/metrics/types';
import { SERVICE_NAME } from './config';
import { logger } from './logger';

const NAMESPACE = 'TalentPipeline';

/**
 * The shared instance holds nothing between calls (emitMetric writes single metrics, a delivery
 * batch its own instance), so the flush of logMetrics (lib/lambda.ts) finds it empty on almost
 * every invocation: Powertools' warning about that would be a WARN line per invocation. Its other
 * warnings go to the structured log.
 */
const metricsLog = {
  debug: (...a: unknown[]) => logger.debug(String(a[0]), ...a.slice(1).map((x) => ({ detail: x }))),
  info: (...a: unknown[]) => logger.info(String(a[0]), ...a.slice(1).map((x) => ({ detail: x }))),
  warn: (...a: unknown[]) => {
    if (!String(a[0]).startsWith('No application metrics to publish')) logger.warn(String(a[0]), ...a.slice(1).map((x) => ({ detail: x })));
  },
  error: (...a: unknown[]) => logger.error(String(a[0]), ...a.slice(1).map((x) => ({ detail: x }))),
};

export const metrics = new Metrics({ namespace: NAMESPACE, serviceName: SERVICE_NAME, logger: metricsLog });
export { MetricUnit };

/**
 * Emit one metric now, as its own EMF line, with only the service dimension and the given ones.
 * Nothing is held between calls, so invocations that overlap (as the local runtime runs them)
 * cannot lend each other dimensions, and a metric is never lost to a missing flush.
 */
export function emitMetric(name: string, value = 1, unit: Unit = MetricUnit.Count, dimensions: Record<string, string> = {}): void {
  const single = metrics.singleMetric();
  if (Object.keys(dimensions).length) single.addDimensions(dimensions);
  single.addMetric(name, unit, value);
}

/**
 * Metrics of one invocation, held and written together by `flush()` as one EMF line: Powertools
 * puts the values of one name in an array (a new line after 100). For functions that emit per
 * record: a delivery batch of 50 writes one line instead of 150, and reads its settings from the
 * environment once instead of per metric (which was 4% of a delivery worker's CPU in the bench's
 * profile). An instance of its own per invocation, so invocations that overlap share nothing.
 * Call `flush()` in a `finally`. An invocation that Lambda stops at its timeout loses its batch's
 * metrics (a `finally` does not run then); its attempts are still in the delivery log.
 */
export function invocationMetrics() {
  const held = new Metrics({ namespace: NAMESPACE, serviceName: SERVICE_NAME });
  let count = 0;
  return {
    add(name: string, value = 1, unit: Unit = MetricUnit.Count) {
      held.addMetric(name, unit, value);
      count++;
    },
    flush() {
      // Powertools warns about an empty flush; an invocation with nothing to report is normal.
      if (count > 0) held.publishStoredMetrics();
      count = 0;
    },
  };
}
