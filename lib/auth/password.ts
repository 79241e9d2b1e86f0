/**
 * Password hashing with scrypt at OWASP's recommended strength (N=2^17, r=8, p=1). That needs
 * 128 MiB, above Node's 32 MiB default `maxmem`, so maxmem is raised. The parameters are
 * stored with each hash, so they can be raised later without breaking old hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const maxmem = (o: { N: number; r: number; p: number }) => 128 * o.N * o.r * o.p * 2;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

function derive(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...o, maxmem: maxmem(o) };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A password chosen for someone else (a new member, a reset): 120 random bits, 20 characters. */
export const temporaryPassword = () => randomBytes(15).toString('base64url');

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * The hash of a random, discarded password at the current parameters, verified when the email
 * is unknown so that an unknown email costs the same time as a wrong password. A constant, so
 * that no login pays for computing it.
 */
export const DUMMY_HASH = 'scrypt$131072$8$1$WlISgbdsDeyz9wNA-O6Wsw$rA4YLNpGr1Bi1aHFOayCXn8vj2uwMQHBo4C4QsdDNGQ';
