/**
 * An application on its way to the worker (functions/import-worker.ts, lib/domain/application-run.ts).
 * It rides the import queue: one queue, one worker and one set of alarms for every bulk way in.
 * The body holds personal data for the seconds it waits (encrypted at rest, as the queue is);
 * once the worker has run it lives on the candidate alone, where erasure reaches it.
 */
import * as z from 'zod/mini';
import { sendToImportQueue } from '../imports/queue';

export const ApplicationMessage = z.object({
  v: z.literal(1),
  kind: z.literal('application'),
  tenantId: z.string(),
  reqId: z.string(),
  /** Made when accepted: the candidate's id, so that a message delivered twice creates one. */
  applicationId: z.uuid(),
  receivedAt: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.optional(z.string()),
  answers: z.record(z.string(), z.unknown()),
  consent: z.object({ accepted: z.literal(true), text: z.string(), version: z.string() }),
  source: z.string(),
  /** The CV uploaded for this job (lib/files/keys.ts applicationCvKey), attached by the worker. */
  cvUploadId: z.optional(z.string()),
});
export type ApplicationMessage = z.infer<typeof ApplicationMessage>;

/** The synchronous path's one write. */
export const queueApplication = (m: Omit<ApplicationMessage, 'v' | 'kind'>): Promise<void> =>
  sendToImportQueue({ v: 1, kind: 'application', ...m } satisfies ApplicationMessage);
