/**
 * The workspace's audit log.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { TokenCreator, intParam, timestamp } from './fields';
import { DOCS, type Route } from './route';

// ---- audit log ------------------------------------------------------------------------------

const auditTime = (name: string) => z.optional(z.iso.datetime({ offset: true, error: `${name} must be an ISO 8601 date-time` }));
const auditId = (name: string) =>
  z.optional(z.string({ error: `${name} must be an id` }).check(z.regex(/^[\w.:-]{1,128}$/, { error: `${name} must be an id` })));

/** GET /api/audit: each filter narrows the list; time bounds are inclusive. */
export const AuditQuery = z.strictObject({
  actor: auditId('actor'),
  action: z.optional(
    z
      .string({ error: 'action must be a string' })
      .check(z.regex(/^[a-z_]{1,32}\.[a-z_]{1,48}$/, { error: 'action must be an action name' })),
  ),
  target: auditId('target'),
  from: auditTime('from'),
  to: auditTime('to'),
  cursor: z.optional(z.string({ error: 'cursor must be a string' }).check(z.maxLength(1024, { error: 'cursor is not valid' }))),
  limit: z._default(intParam('limit', 1, 100), 50),
});
export type AuditQuery = z.output<typeof AuditQuery>;

/** A changed field: personal fields by name alone; others with their values before and after. */
const AuditChange = z.object({ field: z.string(), before: z.optional(z.unknown()), after: z.optional(z.unknown()) });

export const AuditRecord = z.object({
  id: z.uuid(),
  at: timestamp,
  action: z.string(),
  actor: z.object({
    type: z.enum(['user', 'token', 'system']),
    id: z.string(),
    email: z.optional(z.string()),
    name: z.optional(z.string()),
    /** A token's creator; absent for workspace tokens and records made before creators were kept. */
    created_by: z.optional(TokenCreator),
  }),
  target: z.object({ type: z.string(), id: z.string() }),
  ip: z.nullable(z.string()),
  user_agent: z.nullable(z.string()),
  request_id: z.nullable(z.string()),
  changes: z.array(AuditChange),
});
export type AuditRecord = z.infer<typeof AuditRecord>;

export const AuditPage = z.object({ data: z.array(AuditRecord), next_cursor: z.nullable(z.string()) });

// ---- routes ------------------------------------------------------------------------------

export const listAudit = {
  method: 'GET',
  path: '/api/audit',
  handler: 'list-audit',
  auth: 'session',
  role: 'admin',
  access: 'read',
  summary: "The workspace's audit log, newest first; a filtered page may be short, with a next_cursor",
  query: AuditQuery,
  ...(DOCS && { errors: { 403: 'Only workspace admins may read it' } }),
  status: 200,
  response: AuditPage,
} as const satisfies Route;
