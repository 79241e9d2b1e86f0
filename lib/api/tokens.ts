/**
 * API tokens, made and revoked from the console.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import type * as model from '../model';
import { MAX_ROTATION_GRACE_SECONDS, MAX_TOKEN_LIFETIME_DAYS, SCOPES, TOKEN_KINDS } from '../model';
import { IdParam, Success, TokenCreator, dataOf, text, timestamp, type Same } from './fields';
import { DOCS, type Route } from './route';

// The message names the array; the boundary says which element (`scopes[1] must be one of …`).
const scopeEnum = z.enum(SCOPES, { error: `scopes must be one of ${SCOPES.join(', ')}` });
export const CreateTokenBody = z.strictObject({
  name: text('name', 100),
  scopes: z
    .array(scopeEnum, { error: 'scopes must be an array of scopes' })
    .check(
      z.minLength(1, { error: 'scopes must name at least one scope' }),
      z.maxLength(SCOPES.length, { error: `scopes must name at most ${SCOPES.length} scopes` }),
    ),
  /** personal (the default): acts as its creator and stops when they leave; workspace: admins only, survives staff changes. */
  kind: z.optional(z.enum(TOKEN_KINDS, { error: `kind must be one of ${TOKEN_KINDS.join(', ')}` })),
  /** When the token stops working: in the future and within the workspace's maximum lifetime; left out, the default lifetime. */
  expires_at: z.optional(z.iso.datetime({ offset: true, error: 'expires_at must be an ISO 8601 date-time, such as 2026-01-31T09:00:00Z' })),
});
export type CreateTokenBody = z.output<typeof CreateTokenBody>;

export const CreatedToken = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  token: z.string(),
  created_at: timestamp,
  kind: z.enum(TOKEN_KINDS),
  expires_at: timestamp,
});

export const TokenListing = z.object({
  ...z.pick(CreatedToken, { id: true, name: true, scopes: true, created_at: true, kind: true }).shape,
  /** Prefix and last four characters; never the token or its digest. */
  hint: z.string(),
  last_used_at: z.nullable(timestamp),
  /** Null for a workspace token: made before creators were recorded, or with the admin CLI. */
  created_by: z.nullable(TokenCreator),
  /** Null only for a token made before every token had a lifetime: it keeps working until revoked. */
  expires_at: z.nullable(timestamp),
});

// The store builds this shape without the schema; a field added to one side only fails tsc here.
true satisfies Same<z.infer<typeof TokenListing>, model.TokenListing>;
true satisfies Same<z.infer<typeof CreatedToken>, model.CreatedToken>;

// ---- routes ------------------------------------------------------------------------------

export const createToken = {
  method: 'POST',
  path: '/api/tokens',
  handler: 'create-token',
  auth: 'session',
  access: 'write',
  summary: DOCS && 'Create an API token; the token is shown only here',
  body: CreateTokenBody,
  ...(DOCS && {
    errors: {
      400: 'expires_at in the past or beyond the workspace maximum lifetime (field expires_at)',
      403: "A scope beyond the caller's role (field scopes; a member may not grant candidates:erase or *), a member asking for a workspace token (field kind), or a cross-site request",
    },
  }),
  status: 201,
  response: dataOf(CreatedToken),
} as const satisfies Route;

export const listTokens = {
  method: 'GET',
  path: '/api/tokens',
  handler: 'list-tokens',
  auth: 'session',
  access: 'read',
  summary: DOCS && "List the workspace's API tokens, without secrets",
  status: 200,
  response: dataOf(z.array(TokenListing)),
} as const satisfies Route;

export const revokeToken = {
  method: 'DELETE',
  path: '/api/tokens/{id}',
  handler: 'revoke-token',
  auth: 'session',
  access: 'write',
  summary: DOCS && 'Revoke an API token',
  params: IdParam,
  ...(DOCS && { errors: { 403: 'A member revoking a token someone else made, or a workspace token; or a cross-site request' } }),
  status: 200,
  response: Success,
} as const satisfies Route;

// ---- rotation ----------------------------------------------------------------------------

const graceError = `grace_seconds must be an integer between 0 and ${MAX_ROTATION_GRACE_SECONDS}`;
export const RotateTokenBody = z.strictObject({
  /** How long the old secret keeps working: 0 (it stops at once) to 86400 (24 hours); default 3600. Never past the token's expiry. */
  grace_seconds: z.optional(
    z.int({ error: graceError }).check(z.gte(0, { error: graceError }), z.lte(MAX_ROTATION_GRACE_SECONDS, { error: graceError })),
  ),
});
export type RotateTokenBody = z.output<typeof RotateTokenBody>;
export const RotatedToken = z.object({
  ...CreatedToken.shape,
  /** Unchanged by rotation; null only for a token made before every token had a lifetime. */
  expires_at: z.nullable(timestamp),
  /** When the old secret stops working; null when it stopped at once (grace_seconds 0). */
  previous_secret_ends_at: z.nullable(timestamp),
});

export const rotateToken = {
  method: 'POST',
  path: '/api/tokens/{id}/rotate',
  handler: 'rotate-token',
  auth: 'session',
  access: 'write',
  summary: DOCS && 'Give a token a new secret, shown only here; the old one keeps working for grace_seconds',
  params: IdParam,
  body: RotateTokenBody,
  ...(DOCS && {
    errors: {
      403: 'A member rotating a token someone else made, or a workspace token; or a cross-site request',
      409: 'The token has expired, or was rotated or revoked by someone else at the same time',
    },
  }),
  status: 200,
  response: dataOf(RotatedToken),
} as const satisfies Route;

// ---- token lifetimes (a workspace setting) -----------------------------------------------

const daysError = (name: string) => `${name} must be a whole number of days from 1 to ${MAX_TOKEN_LIFETIME_DAYS}`;
const lifetimeDays = (name: string) =>
  z
    .number({ error: daysError(name) })
    .check(
      z.int({ error: daysError(name) }),
      z.gte(1, { error: daysError(name) }),
      z.lte(MAX_TOKEN_LIFETIME_DAYS, { error: daysError(name) }),
    );

/** Both lifetimes, in days: `default_days` for a token made without expires_at, `max_days` for any token. */
export const TokenSettingsBody = z.strictObject({ default_days: lifetimeDays('default_days'), max_days: lifetimeDays('max_days') });
export type TokenSettingsBody = z.output<typeof TokenSettingsBody>;
export const TokenSettings = dataOf(z.object({ default_days: z.int(), max_days: z.int() }));

export const getTokenSettings = {
  method: 'GET',
  path: '/api/settings/tokens',
  handler: 'get-token-settings',
  auth: 'session',
  access: 'read',
  summary: DOCS && "The workspace's API token lifetimes: the default and the maximum, in days",
  status: 200,
  response: TokenSettings,
} as const satisfies Route;

export const updateTokenSettings = {
  method: 'PUT',
  path: '/api/settings/tokens',
  handler: 'update-token-settings',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Set the API token lifetimes (tokens made before keep their expiry)',
  body: TokenSettingsBody,
  ...(DOCS && { errors: { 400: 'A lifetime outside 1 to 366 days, or default_days above max_days (field default_days)' } }),
  status: 200,
  response: TokenSettings,
} as const satisfies Route;
