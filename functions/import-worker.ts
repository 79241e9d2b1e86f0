/**
 * Import queue -> candidates: one job run per import message (lib/domain/import-run.ts importRun),
 * one candidate per application (lib/domain/application-run.ts runApplication).
 */
import * as z from 'zod/mini';
import { ApplicationMessage } from '../lib/applications/queue';
import { runApplication } from '../lib/domain/application-run';
import { importRun } from '../lib/domain/import-run';
import { ImportMessage } from '../lib/imports/queue';
import { queueHandler } from '../lib/lambda';

const Message = z.union([ApplicationMessage, ImportMessage]);

export const handler = queueHandler(Message, {
  inOrder: true,
  record: async (m, _, invocation) => {
    if ('kind' in m.body) await runApplication(m.body);
    else await importRun(m.body, invocation);
  },
});
