/**
 * The permission table's lines (lib/permissions.ts ROUTE_ROLES) that the HTTP boundary
 * (lib/http.ts) checks a caller's role against. A Lambda bundle carries only the lines of the
 * routes its function serves: the stack's esbuild define writes them in as TP_ROUTE_ROLES
 * (infra/constructs/table-function.ts lambdaDefine), so esbuild folds this to them and leaves the
 * whole table (~4 KB of every API function) out. Unbundled (tests, the local runtime, tsx) it is
 * the table itself. Like lib/docs.ts, a build-time constant, not a setting: nothing sets it at run
 * time. A route missing from it is called by nobody.
 */
import type { Role } from './model';
import { ROUTE_ROLES } from './permissions';

export const ROUTE_LINES: Readonly<Record<string, readonly Role[]>> = process.env.TP_ROUTE_ROLES
  ? JSON.parse(process.env.TP_ROUTE_ROLES)
  : ROUTE_ROLES;
