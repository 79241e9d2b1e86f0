/**
 * Import queue -> candidates. One message is one run of a job (batch size 1); a run that nears
 * its timeout queues the rest of the job itself, and so does a run that fails (with a delay, up
 * to MAX_FAILURES in a row, then the job fails). A run that crashes outright (out of memory,
 * timeout) leaves its message to come back after the visibility timeout. Every run resumes from
 * the job item (lib/domain/imports.ts runImport).
 */
import type { Context, SQSEvent } from 'aws-lambda';
import { failImport, runImport } from '../lib/imports/worker';
import { ImportMessage, queueImport } from '../lib/imports/queue';
import { logger } from '../lib/logger';

/** Failed runs in a row after which the job is given up (the rows counted so far stay created). */
export const MAX_FAILURES = 5;

export const handler = async (event: SQSEvent, context: Context): Promise<void> => {
  for (const record of event.Records) {
    const m = ImportMessage.parse(JSON.parse(record.body));
    const job = { tenantId: m.tenantId, jobId: m.jobId };
    logger.appendKeys({ tenant_id: m.tenantId });
    try {
      const outcome = await runImport(m.tenantId, m.jobId, {
        timeLeftMs: () => context.getRemainingTimeInMillis(),
        requeue: (delayS) => queueImport(job, delayS),
      });
      logger.info('import run ended', { job_id: m.jobId, outcome });
    } catch (err) {
      // Name and message only: SDK errors can carry items, and rows are personal data.
      const { name, message } = err as Error;
      const failures = (m.failures ?? 0) + 1;
      logger.error('import run failed', { job_id: m.jobId, failures, error: { name, message } });
      if (failures >= MAX_FAILURES)
        await failImport(m.tenantId, m.jobId, 'the import stopped after repeated internal errors; the rows counted were created');
      else await queueImport({ ...job, failures }, 10 * failures);
    } finally {
      logger.removeKeys(['tenant_id']);
    }
  }
};
