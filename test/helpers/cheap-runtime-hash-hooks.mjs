/**
 * Module hooks that serve lib/auth/password.ts with `hashPassword` and `DUMMY_HASH` at scrypt
 * N=2^10 (the format and code of the real module, which every other export still comes from).
 * verifyPassword reads N from the stored hash, so sign-ins run the real check at ~1 ms of CPU
 * instead of ~0.3 s: on a loaded two-core machine a password change (two full-strength scrypts)
 * ran past the route's deployed timeout. The shared browser runtimes load this, and so do the
 * e2e files' `npm start`s that hold no password to its cost (CHEAP_PASSWORDS in processes.ts);
 * test/e2e/local-runtime.test.ts starts its own at full strength and holds the demo login's
 * stored hash to N=2^17.
 */
const REAL = 'tp-real';

export async function load(url, context, nextLoad) {
  const u = new URL(url);
  if (!u.pathname.endsWith('/lib/auth/password.ts') || u.searchParams.has(REAL)) return nextLoad(url, context);
  u.searchParams.set(REAL, '');
  const source = `
import { randomBytes, scryptSync } from 'node:crypto';
import { temporaryPassword } from ${JSON.stringify(u.href)};
export * from ${JSON.stringify(u.href)};
function cheapHash(password) {
  const params = { N: 2 ** 10, r: 8, p: 1 };
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 32, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}
export async function hashPassword(password) {
  return cheapHash(password);
}
export const DUMMY_HASH = cheapHash(temporaryPassword());
`;
  return { format: 'module', source, shortCircuit: true };
}
