/**
 * The OpenAPI document's own route (the function serves the pre-generated document).
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { DOCS, type Route } from './route';

// ---- routes ------------------------------------------------------------------------------

export const openapi = {
  method: 'GET',
  path: '/api/v1/openapi.json',
  handler: 'openapi',
  auth: 'none',
  access: 'none',
  summary: DOCS && 'This OpenAPI document',
  status: 200,
  response: z.looseObject({ openapi: z.string() }),
} as const satisfies Route;
