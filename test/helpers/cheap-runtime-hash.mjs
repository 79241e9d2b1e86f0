/**
 * `--import` of the shared browser runtimes (browser-runtime.ts, through NODE_OPTIONS): their
 * `npm start` hashes passwords at the test cost of cheap-hash.ts instead of N=2^17, as the
 * in-process tiers do (cheap-passwords.ts). See cheap-runtime-hash-hooks.mjs.
 */
import { register } from 'node:module';

register('./cheap-runtime-hash-hooks.mjs', import.meta.url);
