/**
 * The table maintenance consumer's stream filters. Their own module, not table.ts: the spread
 * below is code esbuild keeps wherever the module is bundled, and only the CDK app, the local
 * runtime and tests read these; no table client is needed to read them.
 */
import { STUCK_JOB_PENDING } from './table';

/**
 * Stream records that drive the stuck index's re-index: the STATS item while a job is pending
 * (its save, each step's cursor, and any counter change in between, which resumes a stalled job).
 */
export const STUCK_FILTER_PATTERNS = [
  { eventName: ['MODIFY'], dynamodb: { NewImage: { type: { S: ['stats'] }, stuck_job: { S: [STUCK_JOB_PENDING] } } } },
];
/** Audit intents (lib/store/audit.ts), expanded by the same stream consumer as the stuck re-index. */
export const AUDIT_INTENT_FILTER_PATTERNS = [{ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['audit_intent'] } } } }];
/** The table maintenance consumer's event filters: the stuck re-index's and the audit intents'. */
export const MAINTENANCE_FILTER_PATTERNS = [...STUCK_FILTER_PATTERNS, ...AUDIT_INTENT_FILTER_PATTERNS];
