/**
 * CloudWatch metrics in Embedded Metric Format (Powertools): one JSON log line per flush, turned
 * into metrics by CloudWatch Logs, so no PutMetricData call and no extra IAM. One per cold start.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';

export const metrics = new Metrics({ namespace: 'TalentPipeline', serviceName: 'talent-pipeline' });
export { MetricUnit } from '@aws-lambda-powertools/metrics';
