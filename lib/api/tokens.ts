/**
 * API tokens, made and revoked from the console.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import type * as model from '../model';
import { SCOPES } from '../model';
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
});
export type CreateTokenBody = z.output<typeof CreateTokenBody>;

export const CreatedToken = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  token: z.string(),
  created_at: timestamp,
});

export const TokenListing = z.object({
  ...z.pick(CreatedToken, { id: true, name: true, scopes: true, created_at: true }).shape,
  /** Prefix and last four characters; never the token or its digest. */
  hint: z.string(),
  last_used_at: z.nullable(timestamp),
  /** Null for a workspace token: made before creators were recorded, or with the admin CLI. */
  created_by: z.nullable(TokenCreator),
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
      403: "A scope beyond the caller's role (field scopes; a member may not grant candidates:erase or *), or a cross-site request",
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
