/**
 * The console's overview page.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { dataOf } from './fields';
import { PipelineSummary } from './pipeline';
import { RequisitionFull } from './requisitions';
import { DOCS, type Route } from './route';

export const Overview = dataOf(
  z.object({
    pipeline: PipelineSummary,
    /** Open requisitions, newest first, at most 50. */
    requisitions: z.array(RequisitionFull),
    open_requisitions: z.int(),
  }),
);

// ---- routes ------------------------------------------------------------------------------

export const getOverview = {
  method: 'GET',
  path: '/api/overview',
  handler: 'get-overview',
  auth: 'session',
  access: 'read',
  summary: DOCS && 'The console overview: pipeline summary and open requisitions',
  status: 200,
  response: Overview,
} as const satisfies Route;
