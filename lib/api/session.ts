/**
 * The console's session: signing in and out, reading it, and the password change.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { PASSWORD_MAX, PASSWORD_MIN } from '../auth/password';
import { Role, Success, dataOf } from './fields';
import { DOCS, type Route } from './route';

// ---- workspace identity (session routes) --------------------------------------------------

export const LoginBody = z.strictObject({
  email: z
    .string({ error: 'email must be a string' })
    .check(
      z.trim(),
      z.minLength(3, { error: 'email must be an email address' }),
      z.maxLength(254, { error: 'email must be at most 254 characters' }),
    ),
  password: z
    .string({ error: 'password must be a string' })
    .check(z.minLength(1, { error: 'password must not be empty' }), z.maxLength(256, { error: 'password must be at most 256 characters' })),
});
export type LoginBody = z.output<typeof LoginBody>;

export const SessionInfo = z.object({
  user: z.object({
    id: z.uuid(),
    email: z.string(),
    role: Role,
    /** Set after an admin created the user or reset the password: the console asks for a new one first. */
    must_change_password: z.boolean(),
    /** The user signs in with a code from an authenticator app after the password. */
    two_factor_enabled: z.boolean(),
    /** The IANA zone the user set for themselves (PUT /api/account/time-zone); null: none, the console uses the browser's. */
    time_zone: z.nullable(z.string()),
  }),
  tenant: z.object({ slug: z.string(), name: z.string() }),
  /**
   * Present while the sign-in is half done: `two_factor`, a code is due (POST /api/session/two-factor);
   * `two_factor_enrolment`, the workspace requires two-factor and the user sets it up first. Until
   * then every other route answers 403.
   */
  pending: z.optional(z.enum(['two_factor', 'two_factor_enrolment'])),
});

/** Length is what makes a password hard to guess (NIST SP 800-63B); no composition rules. */
const newPassword = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .check(
      z.minLength(PASSWORD_MIN, { error: `${name} must be at least ${PASSWORD_MIN} characters` }),
      z.maxLength(PASSWORD_MAX, { error: `${name} must be at most ${PASSWORD_MAX} characters` }),
    );

export const ChangePasswordBody = z.strictObject({
  current_password: z
    .string({ error: 'current_password must be a string' })
    .check(
      z.minLength(1, { error: 'current_password must not be empty' }),
      z.maxLength(256, { error: 'current_password must be at most 256 characters' }),
    ),
  new_password: newPassword('new_password'),
});
export type ChangePasswordBody = z.output<typeof ChangePasswordBody>;

let knownZones: Set<string> | undefined;
/**
 * Whether `tz` is a zone the runtime lists (Intl.supportedValuesOf), as the console's zone pickers
 * list them, or UTC, or an IANA name spelled as IANA spells it that the runtime resolves to a
 * listed zone: runtimes list some zones under an older name (Asia/Calcutta for Asia/Kolkata,
 * Europe/Kiev for Europe/Kyiv) and a browser may report either.
 */
export function isKnownZone(tz: string): boolean {
  knownZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (knownZones.has(tz) || tz === 'UTC') return true;
  if (!/^[A-Z][A-Za-z]*(?:\/[A-Z][A-Za-z0-9_+-]*)+$/.test(tz)) return false;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
    return knownZones.has(resolved) || resolved === 'UTC';
  } catch {
    return false;
  }
}

const memberZoneError = 'time_zone must be an IANA time zone such as Europe/Berlin, or null for none';
export const TimeZoneBody = z.strictObject({
  time_zone: z.nullable(
    z
      .string({ error: memberZoneError })
      .check(z.maxLength(64, { error: memberZoneError }), z.refine(isKnownZone, { error: memberZoneError })),
  ),
});
export type TimeZoneBody = z.output<typeof TimeZoneBody>;
export const AccountTimeZone = z.object({ time_zone: z.nullable(z.string()) });

// ---- routes ------------------------------------------------------------------------------

export const login = {
  method: 'POST',
  path: '/api/session',
  handler: 'login',
  auth: 'none',
  access: 'write',
  summary: DOCS && 'Log in; sets the session cookie',
  body: LoginBody,
  ...(DOCS && {
    errors: {
      401: 'Wrong email or password (one message for both)',
      403: 'Cross-site request refused',
      429: 'Too many failed logins for this account; see Retry-After',
    },
  }),
  status: 200,
  response: dataOf(SessionInfo),
} as const satisfies Route;

export const getSession = {
  method: 'GET',
  path: '/api/session',
  handler: 'get-session',
  auth: 'session',
  beforePasswordChange: true,
  twoFactorStep: ['verify', 'enrol'],
  access: 'read',
  summary: DOCS && 'The signed-in user and workspace',
  status: 200,
  response: dataOf(SessionInfo),
} as const satisfies Route;

export const logout = {
  method: 'DELETE',
  path: '/api/session',
  handler: 'logout',
  auth: 'session',
  beforePasswordChange: true,
  twoFactorStep: ['verify', 'enrol'],
  access: 'write',
  summary: DOCS && 'Log out; the session stops working at once',
  status: 200,
  response: Success,
} as const satisfies Route;

export const changePassword = {
  method: 'PUT',
  path: '/api/session/password',
  handler: 'change-password',
  auth: 'session',
  beforePasswordChange: true,
  access: 'write',
  summary: DOCS && 'Change your own password; your other sessions end',
  body: ChangePasswordBody,
  ...(DOCS && { errors: { 429: 'Too many wrong current passwords from this address; see Retry-After' } }),
  status: 200,
  response: Success,
} as const satisfies Route;

export const setTimeZone = {
  method: 'PUT',
  path: '/api/account/time-zone',
  handler: 'set-time-zone',
  auth: 'session',
  access: 'write',
  summary: DOCS && 'Set your own time zone (null: none): the console shows times in it, and your scorecard reminders come at 9:00 in it',
  body: TimeZoneBody,
  status: 200,
  response: dataOf(AccountTimeZone),
} as const satisfies Route;
