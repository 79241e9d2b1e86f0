/**
 * one-write.test.ts again with RATE_LIMITS=off, as `npm start` runs a local load run: no table
 * write at all on the synchronous path.
 */
process.env.RATE_LIMITS = 'off';
await import('./one-write.test');
export {};
