/**
 * CloudWatch metrics in Embedded Metric Format (Powertools): one JSON log line per flush, turned
 * into metrics by CloudWatch Logs, so no PutMetricData call and no extra IAM. One per cold start.
 * Namespace `TalentPipeline`; the names are listed in the README ("Logs, metrics and traces").
 * Every metric carries the `service` dimension, which is per stage when deployed (lib/env.ts
 * SERVICE_NAME), and the alarms and dashboard read their own stage's (infra/constructs/monitoring.ts).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricUnit as Unit } from '@aws-lambda-powertools/metrics/types';
import { SERVICE_NAME } from './env';

export const metrics = new Metrics({ namespace: 'TalentPipeline', serviceName: SERVICE_NAME });
export { MetricUnit };

/**
 * Emit one metric now, as its own EMF line, with only the service dimension and the given ones.
 * Nothing is held between calls, so invocations that overlap (as the local runtime runs them)
 * cannot lend each other dimensions, and a metric is never lost to a missing flush.
 */
export function emitMetric(
  name: string,
  value = 1,
  unit: Unit = MetricUnit.Count,
  dimensions: Record<string, string> = {},
): void {
  const single = metrics.singleMetric();
  if (Object.keys(dimensions).length) single.addDimensions(dimensions);
  single.addMetric(name, unit, value);
}
