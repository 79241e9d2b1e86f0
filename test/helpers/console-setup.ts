import { ensureConsoleBuilt } from '../../console/build';

/**
 * Global setup of the tiers that run `npm start` (e2e, browser): the console is built here, once,
 * before any file starts. Each `npm start` builds it when it is missing or older than its
 * sources, so on a fresh clone the first files' `npm start`s, starting together, each built it
 * into the same console/dist at once. Both projects run this setup; the second finds it fresh.
 */
export default async function setup() {
  const built = await ensureConsoleBuilt();
  if (built.status === 'failed') throw new Error(`the console could not be built: ${built.error}`);
}
