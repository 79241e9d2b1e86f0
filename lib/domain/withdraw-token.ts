/**
 * The applicant's withdraw link (the confirmation email, lib/domain/application-confirmation.ts):
 * a token that lets whoever holds it withdraw one application and have its person erased, on the
 * careers page `/careers/<slug>/withdraw?t=<token>`. It is signed with the form tokens' key
 * (FORM_TOKEN_SECRET) under its own prefix, so neither kind of token is ever taken for the other,
 * and it names nothing but the candidate's random id: no name, no address, no workspace id.
 * Pure: the secret and the clock are arguments.
 *
 * Shape: `w1.<candidate id, 16 bytes base64url>.<expiry, ms since epoch, base 36>.<HMAC-SHA256
 * over the board slug, the id and the expiry, base64url>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a link works: long enough for a hiring process, short enough that an old mailbox is no master key. */
export const WITHDRAW_TOKEN_TTL_MS = 90 * 86_400_000;

const VERSION = 'w1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const sign = (secret: string, slug: string, id: string, expires: string) =>
  createHmac('sha256', secret).update(`withdraw-${VERSION}\n${slug}\n${id}\n${expires}`).digest('base64url');

const packId = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url');
function unpackId(packed: string): string | undefined {
  if (!/^[\w-]{22}$/.test(packed)) return undefined;
  const hex = Buffer.from(packed, 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A link's token for the candidate `candidateId` (a UUID) on the board `slug`, good until now + TTL. */
export function issueWithdrawToken(secret: string, slug: string, candidateId: string, now: number): string {
  if (!UUID.test(candidateId)) throw new Error('a withdraw token names a candidate by its UUID');
  const expires = (now + WITHDRAW_TOKEN_TTL_MS).toString(36);
  return `${VERSION}.${packId(candidateId)}.${expires}.${sign(secret, slug, candidateId, expires)}`;
}

export type WithdrawTokenCheck = { ok: true; candidateId: string } | { ok: false; why: 'bad_token' | 'expired_token' };

export function checkWithdrawToken(secret: string, slug: string, token: string, now: number): WithdrawTokenCheck {
  const [version, packed, expires, signature, ...rest] = token.split('.');
  const id = packed && unpackId(packed);
  if (version !== VERSION || !id || !expires || !signature || rest.length || !/^[0-9a-z]{1,12}$/.test(expires)) {
    return { ok: false, why: 'bad_token' };
  }
  const expected = Buffer.from(sign(secret, slug, id, expires));
  const sent = Buffer.from(signature);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return { ok: false, why: 'bad_token' };
  if (now > Number.parseInt(expires, 36)) return { ok: false, why: 'expired_token' };
  return { ok: true, candidateId: id };
}
