/** The OpenAPI 3.1 document, generated from the route table and its zod schemas. */
import { z } from 'zod/mini';
import { GATEWAY_ERRORS } from './gateway-responses';
import { DEEP_OFFSET, DEEP_PAGES_AT_ONCE, MAX_OFFSET, REQ_TRANSITIONS } from './model';
import { SESSION_COOKIE } from './auth/session';
import { dataOf, ErrorBody, ImportDryRun, ImportJob } from './schemas';
import { RATE_LIMITED, SESSION_RATE_LIMITS, TOKEN_RATE_LIMITS } from './rate-limits';
import { routes, type Route } from './routes';
import { DELIVERED_EVENT_TYPES, DELIVERY_HEADERS, envelopeOf, EVENT_SUMMARIES } from './webhooks/payloads';

type JsonSchema = Record<string, unknown>;

const schemaOf = (s: z.ZodMiniType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

/**
 * Answers more precise than the route table's: a union, and literal discriminants. Here, not in
 * the table: every function bundles the table, and z.union and z.literal would add their zod code
 * to each one (1.7 KB, enough to take webhook functions past their 400 KB budget).
 */
const importJob = z.extend(ImportJob, { dry_run: z.literal(false) });
const RESPONSES: Record<string, z.ZodMiniType> = {
  'create-import': dataOf(z.union([importJob, z.extend(ImportDryRun, { dry_run: z.literal(true) })])),
  'get-import': dataOf(importJob),
};
/** The schema of a route's success answer as the document states it. */
export const responseOf = (r: Route): z.ZodMiniType => RESPONSES[r.handler] ?? r.response;

/** On every answer, success or error, the gateway's own included: the id the logs carry. */
const REQUEST_ID_HEADER = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };

const errorResponse = (description: string) => ({
  description,
  headers: REQUEST_ID_HEADER,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * Rules an operation's description states beyond its summary. Here, not in the route table:
 * every function bundles the table, only the OpenAPI function needs these.
 */
const DESCRIPTIONS: Record<string, string> = {
  'list-candidates': `offset (0 to ${MAX_OFFSET}) skips candidates by reading them: a page with an offset over ${DEEP_OFFSET} (a deep page) takes one of its caller's ${DEEP_PAGES_AT_ONCE} slots (per API token or member); another one at once is a 429 with code rate_limited and field offset. A skip that cannot end within the request's time is a 429 with code busy and field offset. next_cursor reaches any depth in one read per page, with no such limit.`,
  'create-import':
    'At most 5 MB and 10,000 rows; `dry_run=true` checks every row and writes nothing (200 with the counts and the first 100 row errors). A 202 answers the new job; a 200 without dry_run answers the job that imported the same bytes in the last 7 days. The whole file is read and checked before anything is written: an unknown column (or NDJSON key) is a 400 naming it. Rows are created in the background, each exactly as POST /api/v1/candidates would create it; a row whose email belongs to a person of the workspace (or to an earlier row) becomes a candidate of that person; the same person again on the same requisition (or again without one) is skipped (code duplicate_candidate). Follow the job with GET /api/v1/candidates/imports/{id} and read the refused rows at /errors; `import.completed` is sent when it ends.',
  'create-import.body':
    'CSV with a header row (columns name, email, phone, resume_url, req_id, stage; any order and case; UTF-8, with or without a BOM; CRLF or LF), or NDJSON with one object per line with those keys. An empty cell is no value. At most 5 MB and 10,000 rows.',
  'change-requisition-status': `The status matrix: ${Object.entries(REQ_TRANSITIONS)
    .map(([from, to]) => `${from} → ${to.join(', ')}`)
    .join(
      '; ',
    )}. Nothing goes back to draft; a change to the current status is a no-op (200, no event). A reason (1 to 500 characters) is required when the status becomes on_hold or closed. A move into placed that brings hires to the headcount of an open requisition sets it filled by itself (actor system). A refused change is a 409 with code invalid_transition and \`allowed\`, the statuses it may move to.`,
  'get-pipeline-settings':
    'Also the retention rules (days, or null when off). With preview_rejected_days and/or preview_inactive_days, `retention_preview` says how many candidates those rules would erase if they ran now (a dry run: nothing is erased).',
  'update-pipeline-settings':
    "With `retention`, also the retention rules: erase candidates `rejected_days` after they were rejected, or after `inactive_days` without any change; null (or left out of `retention`) is off. Without `retention`, the rules stay as they are. A run erases as the service (actor system) with the rule's name.",
  'create-token':
    "A token's scopes never exceed what its creator's role may do: a member may grant every scope but `candidates:erase` and `*`; asking for more is a 403 with field scopes, naming them. The token records its creator (`created_by` in the listing, and in the audit records of what it does). When an admin lowers the creator's role its scopes are narrowed to the new role (revoked when none is left); when the creator is removed it is revoked. Either way it answers 401 or 403 within 60 s (the authorizer's cache).",
  'list-tokens':
    '`created_by` is the workspace user who made the token, or null for a workspace token (made before creators were recorded, or with the admin CLI).',
  'revoke-token':
    "A member revokes the tokens they made; only admins revoke someone else's, or a workspace token (403). The token stops working within 60 s (the authorizer's cache).",
  'erase-candidate':
    "`candidates:write` does not imply this scope. Empties name, email, phone and resume_url on the candidate and on every copy the service keeps (search entries, kept webhook bodies, delivery attempts' response bodies, placements, idempotency records); queued deliveries of its events are dropped and logged with error_category `erased`. The id, stage, requisition, timestamps, stage history and every count stay; stage moves still work; a PATCH of a personal field is then a 409 with code candidate_erased. Sends `candidate.erased` (id and erased_at only). A later call sweeps the copies again and answers the receipt with what it found added to the counts (erased_at unchanged); deliveries in flight are logged without the receiver's answer.",
};

/** The handler's name in camel case; a console twin adds `ForConsole`, as it shares the handler. */
const operationId = (r: Route) => `${r.handler.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}${r.twinOf ? 'ForConsole' : ''}`;

function operation(r: Route) {
  const pathSchemas = r.params ? ((schemaOf(r.params, 'input').properties ?? {}) as Record<string, JsonSchema>) : {};
  const parameters: unknown[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: pathSchemas[m[1]!] ?? { type: 'string' },
  }));
  if (r.query) {
    // Which parameters are required is the input's; what each one is, its value as read: an
    // integer parameter arrives as digits (lib/schemas.ts intParam) and is an integer.
    const q = schemaOf(r.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    const read = (schemaOf(r.query, 'output') as { properties?: Record<string, JsonSchema> }).properties ?? {};
    for (const name of Object.keys(q.properties ?? {})) {
      parameters.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema: read[name] });
    }
  }
  if (r.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Optional; 1 to 255 printable ASCII characters (a UUID, say). A retry with the same key and the same request within 24 h gets the first answer again, with `Idempotent-Replayed: true`, and writes nothing. Keys are scoped to the workspace and this route; failures are not kept.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    });
  }
  if (r.ifMatch) {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'Optional: the ETag of the version the change is based on; any other version is a 412 (code stale_requisition).',
      schema: { type: 'string' },
    });
  }
  const success = r.html
    ? { 'text/html': { schema: { type: 'string' } } }
    : { 'application/json': { schema: schemaOf(responseOf(r), 'output') } };
  const successHeaders = {
    ...REQUEST_ID_HEADER,
    ...(r.etag && {
      ETag: {
        description: 'The version of the answered resource; send it as If-Match to change only that version',
        schema: { type: 'string' },
      },
    }),
    ...(r.idempotent && {
      'Idempotent-Replayed': {
        description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
        schema: { type: 'string', enum: ['true'] },
      },
    }),
  };
  const responses: Record<string, unknown> = { [r.status]: { description: 'Success', headers: successHeaders, content: success } };
  for (const [status, description] of Object.entries(r.alsoStatus ?? {}))
    responses[status] = { description, headers: successHeaders, content: success };
  if (r.query || r.body || r.params) responses['400'] = errorResponse('Invalid path, query or body value; the message names the field');
  if (r.auth === 'token') {
    responses['401'] = errorResponse(GATEWAY_ERRORS.unauthorized.error);
    responses['403'] = errorResponse(`${GATEWAY_ERRORS.accessDenied.error} (${r.scope})`);
  } else if (r.auth === 'session') {
    responses['401'] = errorResponse('No session, or it expired (idle or absolute lifetime)');
    const reasons = [
      ...(r.role ? [`only workspace ${r.role}s may call this`] : []),
      ...(r.method !== 'GET' ? ['a cross-site request'] : []),
      ...(r.beforePasswordChange ? [] : ['the user must first change a temporary password (code password_change_required)']),
    ];
    if (reasons.length) responses['403'] = errorResponse(`${reasons.join('; or ')}`.replace(/^./, (c) => c.toUpperCase()));
  }
  responses['404'] = errorResponse("Unknown route, or a resource that does not exist in the caller's tenant");
  if (r.body) {
    // API Gateway refuses bodies over its payload limit before any handler runs.
    responses['413'] = errorResponse(GATEWAY_ERRORS.requestTooLarge.error);
    responses['415'] = errorResponse('Content-Type is not application/json');
  }
  if (r.upload)
    responses['400'] = errorResponse(
      'Invalid query, or a file refused as a whole (its header, columns, keys or row count); the message says why',
    );
  // Any handler may run out of its time budget (lib/time-budget.ts).
  const busy = '; or code busy: the request could not finish within its time budget (Retry-After)';
  responses['429'] =
    r.auth === 'token'
      ? {
          ...errorResponse(
            `${RATE_LIMITED.throttled.error} (per token: ${TOKEN_RATE_LIMITS.ratePerSecond} requests/s, bursts of ${TOKEN_RATE_LIMITS.burst}, ${TOKEN_RATE_LIMITS.quotaPerDay} a day); code rate_limited${busy}`,
          ),
          headers: {
            ...REQUEST_ID_HEADER,
            'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
            'RateLimit-Limit': {
              description: 'Local runs only: the bucket size, or the daily quota once it is used up',
              schema: { type: 'integer' },
            },
            'RateLimit-Remaining': { description: 'Local runs only: requests left', schema: { type: 'integer' } },
            'RateLimit-Reset': { description: 'Local runs only: seconds until the allowance is back', schema: { type: 'integer' } },
          },
        }
      : r.auth === 'session'
        ? errorResponse(
            `${RATE_LIMITED.throttled.error} (per member: ${SESSION_RATE_LIMITS.ratePerSecond} requests/s, bursts of ${SESSION_RATE_LIMITS.burst}); code rate_limited${busy}`,
          )
        : errorResponse(GATEWAY_ERRORS.throttled.error);
  responses['500'] = errorResponse(
    'Internal error: `{ "error": "internal error (request id <id>)" }`; the details are logged under that id, never returned',
  );
  // 304 Not Modified has no body; every other status listed answers the error body.
  for (const [status, description] of Object.entries(r.errors ?? {}))
    responses[status] = status === '304' ? { description, headers: successHeaders } : errorResponse(description);
  // An HTML route's not-found answer is a page too, and a malformed path answers it as well; so
  // is every other refusal its line lists (the CV step's 400, 415 and 429).
  if (r.html) {
    delete responses['400'];
    responses['404'] = { description: r.errors?.[404] ?? 'Not found', headers: REQUEST_ID_HEADER, content: success };
    for (const [status, description] of Object.entries(r.errors ?? {}))
      if (status !== '304' && status !== '404')
        responses[status] = {
          description: status === '429' ? `${description}; or the gateway's throttle, as JSON` : description,
          headers: REQUEST_ID_HEADER,
          // A 429 may come from the gateway's throttle too, before the function runs: JSON then.
          content: status === '429' ? { ...success, ...(responses['429'] as { content: object }).content } : success,
        };
  }

  return {
    operationId: operationId(r),
    summary: r.summary,
    ...(r.scope && {
      description: `Requires scope \`${r.scope}\` (or \`*\`).${DESCRIPTIONS[r.handler] ? ` ${DESCRIPTIONS[r.handler]}` : ''}`,
    }),
    ...(!r.scope && !r.role && DESCRIPTIONS[r.handler] && { description: DESCRIPTIONS[r.handler] }),
    ...(r.role && {
      description: `Requires the workspace role \`${r.role}\`.${DESCRIPTIONS[r.handler] ? ` ${DESCRIPTIONS[r.handler]}` : ''}`,
    }),
    ...(r.twinOf && {
      description: `The console's twin of \`${r.method} ${r.twinOf}\`: the same handler, body and answers, with the session cookie instead of a token. ${r.role ? `Only workspace ${r.role}s may call it` : 'Any member may call it'}; writes must come from the console's own origin.${DESCRIPTIONS[r.handler] ? ` ${DESCRIPTIONS[r.handler]}` : ''}`,
    }),
    security: r.auth === 'token' ? [{ bearerAuth: r.scope ? [r.scope] : [] }] : r.auth === 'session' ? [{ sessionCookie: [] }] : [],
    parameters,
    ...(r.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: schemaOf(r.body, 'input') } },
      },
    }),
    ...(r.upload && {
      requestBody: {
        required: true,
        description: DESCRIPTIONS[`${r.handler}.body`],
        content: Object.fromEntries(r.upload.map((type) => [type, { schema: { type: 'string' } }])),
      },
    }),
    responses,
  };
}

const webhookOperationId = (type: string) => `on${type.replace(/(^|[._])(\w)/g, (_, __, c: string) => c.toUpperCase())}`;

/**
 * The outgoing webhooks (OpenAPI 3.1 `webhooks`): one POST per event type, which the service
 * sends to each subscribed endpoint, with its envelope, its data and the signature headers.
 */
function webhooks() {
  return Object.fromEntries(
    DELIVERED_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: webhookOperationId(type),
          summary: EVENT_SUMMARIES[type],
          description:
            'Sent as a POST to each active endpoint subscribed to this type, at least once and unordered. Verify the signature over the raw body before parsing it, answer 2xx fast, and deduplicate by `webhook-id`.',
          security: [],
          parameters: DELIVERY_HEADERS.map((h) => ({ in: 'header', ...h })),
          requestBody: { required: true, content: { 'application/json': { schema: schemaOf(envelopeOf(type), 'output') } } },
          responses: {
            '2XX': { description: 'Received. Any 2xx ends the delivery; the body is kept (1 KB) in the delivery log.' },
            '410': { description: 'Gone: the service disables the endpoint and sends no more deliveries to it.' },
            default: {
              description:
                'Anything else (or a timeout, or no answer) is a failure: the delivery is retried on the schedule, then dead-lettered.',
            },
          },
        },
      },
    ]),
  );
}

export function openApiDocument(serverUrl = '/') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes as readonly Route[]) {
    (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Talent Pipeline API',
      version: '1.0.0',
      description: 'Tenant-scoped hiring pipeline: candidates, requisitions, pipeline stages.',
    },
    servers: [{ url: serverUrl }],
    paths,
    webhooks: webhooks(),
    components: {
      schemas: { Error: schemaOf(ErrorBody, 'output') },
      headers: {
        XRequestId: {
          description:
            "The request's id (API Gateway's request id): quote it when reporting a problem; it is the correlation_id of the request's log lines",
          schema: { type: 'string' },
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'API token (tps_…) created in the workspace console under Settings › API tokens (/settings/tokens); scopes per route',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'Set by POST /api/session (the console signs in at /signin)',
        },
      },
    },
  };
}
