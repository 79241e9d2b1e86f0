/**
 * Two-factor sign-in: the second sign-in step, a user's own enrolment, the workspace policy and
 * an admin's reset of a member's two-factor.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { TWO_FACTOR_POLICIES } from '../model';
import { IdParam, Success, dataOf, timestamp } from './fields';
import { DOCS, type Route } from './route';
import { SessionInfo } from './session';

const code = z
  .string({ error: 'code must be a string' })
  .check(z.minLength(1, { error: 'code must not be empty' }), z.maxLength(64, { error: 'code must be at most 64 characters' }));

/** The second step: a code from the authenticator app, or one of the recovery codes. */
export const TwoFactorBody = z
  .strictObject({
    code: z.optional(code),
    recovery_code: z.optional(
      z
        .string({ error: 'recovery_code must be a string' })
        .check(
          z.minLength(1, { error: 'recovery_code must not be empty' }),
          z.maxLength(64, { error: 'recovery_code must be at most 64 characters' }),
        ),
    ),
  })
  .check(
    z.refine((b) => (b.code === undefined) !== (b.recovery_code === undefined), {
      error: 'send either code or recovery_code',
      path: ['code'],
    }),
  );
export type TwoFactorBody = z.output<typeof TwoFactorBody>;

export const ConfirmTwoFactorBody = z.strictObject({ code });

export const DisableTwoFactorBody = z.strictObject({
  password: z
    .string({ error: 'password must be a string' })
    .check(z.minLength(1, { error: 'password must not be empty' }), z.maxLength(256, { error: 'password must be at most 256 characters' })),
});

export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  /** When the user confirmed their authenticator app; null while two-factor is off. */
  enabled_at: z.nullable(timestamp),
  /** Unused recovery codes left (each is good once). */
  recovery_codes_left: z.int(),
  /** The workspace policy requires two-factor of this user: it cannot be turned off. */
  required: z.boolean(),
});

/** Shown once, at the start of an enrolment: the secret never leaves the server again. */
export const TwoFactorEnrolment = z.object({
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The otpauth URI as a QR code, an SVG document. */
  qr_svg: z.string(),
});

/** Shown once, when the enrolment is confirmed; only their digests are kept. */
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });

const policyError = `required_for must be one of ${TWO_FACTOR_POLICIES.join(', ')}`;
export const TwoFactorSettings = z.object({ required_for: z.enum(TWO_FACTOR_POLICIES) });
export const TwoFactorSettingsBody = z.strictObject({ required_for: z.enum(TWO_FACTOR_POLICIES, { error: policyError }) });

// ---- routes ------------------------------------------------------------------------------

export const verifyTwoFactor = {
  method: 'POST',
  path: '/api/session/two-factor',
  handler: 'verify-two-factor',
  auth: 'session',
  twoFactorStep: ['verify'],
  access: 'write',
  summary: DOCS && 'Finish signing in with a two-factor code or a recovery code; replaces the session cookie',
  body: TwoFactorBody,
  ...(DOCS && {
    errors: {
      400: 'The code is wrong or already used (field code or recovery_code); counts toward the sign-in throttle',
      409: 'This session is fully signed in already, or must set up two-factor instead',
      429: 'Too many failed sign-ins for this account from this address; see Retry-After',
    },
  }),
  status: 200,
  response: dataOf(SessionInfo),
} as const satisfies Route;

export const getTwoFactor = {
  method: 'GET',
  path: '/api/account/two-factor',
  handler: 'get-two-factor',
  auth: 'session',
  twoFactorStep: ['enrol'],
  access: 'read',
  summary: DOCS && 'Your two-factor sign-in: on or off, recovery codes left, required or not',
  status: 200,
  response: dataOf(TwoFactorStatus),
} as const satisfies Route;

export const startTwoFactor = {
  method: 'POST',
  path: '/api/account/two-factor',
  handler: 'start-two-factor',
  auth: 'session',
  twoFactorStep: ['enrol'],
  access: 'write',
  summary: DOCS && 'Start setting up two-factor sign-in: a new secret, its otpauth URI and QR code (shown only here)',
  ...(DOCS && { errors: { 409: 'Two-factor sign-in is already on' } }),
  status: 200,
  response: dataOf(TwoFactorEnrolment),
} as const satisfies Route;

export const confirmTwoFactor = {
  method: 'POST',
  path: '/api/account/two-factor/confirm',
  handler: 'confirm-two-factor',
  auth: 'session',
  twoFactorStep: ['enrol'],
  access: 'write',
  summary: DOCS && 'Confirm the set-up with a code from the app: two-factor is on; answers the recovery codes, once',
  body: ConfirmTwoFactorBody,
  ...(DOCS && {
    errors: { 400: 'The code does not match the secret being set up (field code)', 409: 'No set-up started, or two-factor is already on' },
  }),
  status: 200,
  response: dataOf(RecoveryCodes),
} as const satisfies Route;

export const disableTwoFactor = {
  method: 'POST',
  path: '/api/account/two-factor/disable',
  handler: 'disable-two-factor',
  auth: 'session',
  access: 'write',
  summary: DOCS && 'Turn your two-factor sign-in off, with your password',
  body: DisableTwoFactorBody,
  ...(DOCS && {
    errors: {
      400: 'The password is wrong (field password); counts toward the sign-in throttle',
      409: 'The workspace requires two-factor sign-in for your role',
      429: 'Too many wrong passwords from this address; see Retry-After',
    },
  }),
  status: 200,
  response: Success,
} as const satisfies Route;

export const getTwoFactorSettings = {
  method: 'GET',
  path: '/api/settings/two-factor',
  handler: 'get-two-factor-settings',
  auth: 'session',
  access: 'read',
  summary: DOCS && "The workspace's two-factor policy: required for nobody (off), for admins, or for everyone",
  status: 200,
  response: dataOf(TwoFactorSettings),
} as const satisfies Route;

export const updateTwoFactorSettings = {
  method: 'PUT',
  path: '/api/settings/two-factor',
  handler: 'update-two-factor-settings',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Set the two-factor policy; members it newly requires are signed out and set it up at their next sign-in',
  body: TwoFactorSettingsBody,
  ...(DOCS && { errors: { 409: 'Requiring two-factor of your own role before turning it on for yourself (field required_for)' } }),
  status: 200,
  response: dataOf(TwoFactorSettings),
} as const satisfies Route;

export const resetMemberTwoFactor = {
  method: 'POST',
  path: '/api/members/{id}/reset-two-factor',
  handler: 'reset-member-two-factor',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: "Reset a member's two-factor sign-in (a lost phone); their sessions end",
  params: IdParam,
  status: 200,
  response: Success,
} as const satisfies Route;
