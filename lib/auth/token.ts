/**
 * API token format, modelled on GitHub's: `tps_` + 30 random base62 characters + a 6-character
 * base62 CRC32 of the random part. The checksum lets the authorizer refuse a mistyped or
 * made-up token without a database read, and the prefix makes leaked tokens easy to scan for.
 * Only the SHA-256 digest is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const TOKEN_PREFIX = 'tps_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30; // ~178 bits
const CHECKSUM_LENGTH = 6;
const TOKEN_RE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: reject the tail so every character is equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

const checksum = (body: string) => base62(crc32(body), CHECKSUM_LENGTH);

/** A new random token. Show it once; store only `tokenDigest(token)`. */
export function generateToken(): string {
  const body = randomBase62(RANDOM_LENGTH);
  return `${TOKEN_PREFIX}${body}${checksum(body)}`;
}

/** True when the token has our shape and its checksum matches. Costs no I/O. */
export function isWellFormedToken(token: string): boolean {
  if (!TOKEN_RE.test(token)) return false;
  const body = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + RANDOM_LENGTH);
  return token.endsWith(checksum(body));
}

/**
 * The credentials of an Authorization header of the Bearer scheme: the scheme in any case, then
 * one or more spaces (RFC 7235), then one run of non-space characters. Undefined for any other
 * header; whether the credentials are a token is isWellFormedToken's to say.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1];
}

export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A non-secret hint for listings: prefix plus the last four characters. */
export const tokenHint = (token: string): string => `${TOKEN_PREFIX}…${token.slice(-4)}`;
