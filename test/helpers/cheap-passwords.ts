/**
 * Setup file of the integration tiers (vitest.config.ts): the handlers run in the test's own
 * process, and here hashPassword and the unknown-email DUMMY_HASH cost N=2^10 (cheap-hash.ts)
 * instead of 2^17. Every sign-in, password change, member and reset still runs the real routes
 * and the real verifyPassword; only the work factor is lower. Without it, the hostile-input sweep
 * of POST /api/session alone verified dozens of full-strength hashes in a row (seconds of CPU
 * per case on a loaded two-core machine). test/unit/password.test.ts holds the real module to
 * its parameters, and the e2e and browser tiers run `npm start` with them.
 */
import { vi } from 'vitest';
import { cheapHash } from './cheap-hash';

vi.mock('../../lib/auth/password', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../lib/auth/password')>();
  return {
    ...real,
    hashPassword: async (password: string) => cheapHash(password),
    DUMMY_HASH: cheapHash(real.temporaryPassword()),
  };
});
