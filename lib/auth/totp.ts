/**
 * TOTP (RFC 6238) through otplib: SHA-1, six digits, 30-second periods, which every authenticator
 * app reads from the otpauth URI. Imported only by the functions that make or check a code, so
 * the others do not bundle otplib.
 */
import { generateSecret, generateURI, verify } from 'otplib';

/** The period authenticator apps use (RFC 6238's default). */
export const TOTP_PERIOD_SECONDS = 30;

/** One period either side of the server's clock: a phone a little ahead or behind still signs in. */
const TOTP_TOLERANCE_SECONDS = 30;

/** The issuer an authenticator app lists the account under. */
export const TOTP_ISSUER = 'Talent Pipeline';

/** A new base32 secret (160 bits, RFC 4226's recommended length for SHA-1). */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// URI the QR code carries: the app learns the issuer, the account and the secret. */
export const otpauthUri = (secret: string, account: string): string => generateURI({ issuer: TOTP_ISSUER, label: account, secret });

/**
 * The time step a code matched (one period either side of `now`), or undefined. A step at or
 * before `afterStep`, one already used, never matches: a code is good once.
 */
export async function matchTotp(secret: string, code: string, now: number, afterStep?: number): Promise<number | undefined> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now / 1000),
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(afterStep !== undefined && { afterTimeStep: afterStep }),
  });
  return result.valid ? Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + result.delta : undefined;
}
