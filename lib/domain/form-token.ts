/**
 * The application form's token: handed out by the public job reads (the board's job JSON and the
 * careers job page), required by the application. It proves that the post follows a read of
 * that job on that board, made at least FORM_MIN_MS earlier and at most FORM_TOKEN_TTL_MS ago.
 * A person takes far longer than FORM_MIN_MS to fill a form; a script that posts as soon as it
 * has read does not. Pure: the secret and the clock are arguments.
 *
 * Shape: `v1.<issued at, ms since epoch, base 36>.<HMAC-SHA256 over board slug, job id and issue
 * time, base64url>`. Nothing in it is secret or personal; only the signature is checked.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The shortest time between the read that issued a token and a post that uses it. */
export const FORM_MIN_MS = 3_000;
/** How long a token is good for: a tab left open overnight still applies. */
export const FORM_TOKEN_TTL_MS = 24 * 3_600_000;
/** A token issued this far in the future (clock skew between functions) still counts as now. */
const SKEW_MS = 60_000;

const VERSION = 'v1';

const sign = (secret: string, slug: string, jobId: string, issued: string) =>
  createHmac('sha256', secret).update(`${VERSION}\n${slug}\n${jobId}\n${issued}`).digest('base64url');

export function issueFormToken(secret: string, slug: string, jobId: string, now: number): string {
  const issued = now.toString(36);
  return `${VERSION}.${issued}.${sign(secret, slug, jobId, issued)}`;
}

/** Why a token does not admit a post; `ok` when it does. */
export type FormTokenCheck = 'ok' | 'bad_token' | 'expired_token' | 'too_fast';

export function checkFormToken(secret: string, slug: string, jobId: string, token: string, now: number): FormTokenCheck {
  const [version, issued, signature, ...rest] = token.split('.');
  if (version !== VERSION || !issued || !signature || rest.length || !/^[0-9a-z]{1,12}$/.test(issued)) return 'bad_token';
  const expected = Buffer.from(sign(secret, slug, jobId, issued));
  const sent = Buffer.from(signature);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return 'bad_token';
  const age = now - Number.parseInt(issued, 36);
  if (age < -SKEW_MS) return 'bad_token';
  if (age > FORM_TOKEN_TTL_MS) return 'expired_token';
  if (age < FORM_MIN_MS) return 'too_fast';
  return 'ok';
}

/** When a well-formed token says it was issued (ms); check it with checkFormToken first. */
export const formTokenIssuedAt = (token: string): number => Number.parseInt(token.split('.')[1] ?? '0', 36);

/** An answer carrying a token is the same version (ETag) within one such window. */
export const FORM_TOKEN_ETAG_WINDOW_MS = 3_600_000;
export const formTokenWindow = (now: number) => Math.floor(now / FORM_TOKEN_ETAG_WINDOW_MS);
