/**
 * lib/auth/password.ts: new hashes are made at full strength (N=2^17, r=8, p=1), whatever hashes
 * the tests store for their own users (test/helpers/stack.ts stores cheap ones; verifyPassword
 * follows the parameters stored with each hash).
 */
import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../lib/auth/password';

describe('password hashing', () => {
  it('hashes at N=2^17, r=8, p=1 with a fresh salt, and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
  });

  it('the unknown-email hash costs what a real one does', () => {
    expect(DUMMY_HASH.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);
  });
});
