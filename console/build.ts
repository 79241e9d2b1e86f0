/**
 * Builds the console into console/dist with Vite's JS API when the build is missing or older
 * than its sources. `npm start` calls this; it never throws (a failed build leaves the API up).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONSOLE_ROOT = fileURLToPath(new URL('.', import.meta.url));
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');

/** The server modules (under lib/) a console source imports, such as lib/model.ts and lib/csv.ts. */
const sharedImports = (file: string, source: string) =>
  [...source.matchAll(/from '((?:\.\.\/)+lib\/[\w/-]+)'/g)].map((m) => join(dirname(file), `${m[1]}.ts`));

/**
 * Newest modification time among the console's sources (generated API files excluded), the
 * server modules they import included: a change to lib/csv.ts changes the console too.
 */
function newestSource(root: string): number {
  let newest = 0;
  const seen = new Set<string>();
  const visit = (p: string) => {
    if (seen.has(p) || !existsSync(p)) return;
    seen.add(p);
    const st = statSync(p);
    if (st.isDirectory()) for (const e of readdirSync(p)) visit(join(p, e));
    else if (!/(\.d\.ts|openapi\.json)$/.test(p)) {
      newest = Math.max(newest, st.mtimeMs);
      if (/\.tsx?$/.test(p)) for (const shared of sharedImports(p, readFileSync(p, 'utf8'))) visit(shared);
    }
  };
  for (const p of ['src', 'index.html', 'vite.config.ts']) visit(join(root, p));
  return newest;
}

export type BuildOutcome = { status: 'fresh' | 'built'; ms: number } | { status: 'failed'; ms: number; error: string };

/**
 * Build unless `<root>/dist/index.html` is newer than every source file. `root` is the console
 * (tests point it elsewhere); its vite.config.ts is used when there is one.
 */
export async function ensureConsoleBuilt(opts: { force?: boolean; root?: string } = {}): Promise<BuildOutcome> {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  const root = opts.root ?? CONSOLE_ROOT;
  try {
    const index = join(root, 'dist', 'index.html');
    if (!opts.force && existsSync(index) && statSync(index).mtimeMs >= newestSource(root)) return { status: 'fresh', ms: ms() };
    const { build } = await import('vite');
    const config = join(root, 'vite.config.ts');
    // Vite builds for whatever NODE_ENV it finds (vitest sets `test`, which gives a development
    // JSX transform and a bundle half again as big): always build what is deployed.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build(
        existsSync(config)
          ? { configFile: config, logLevel: 'silent', mode: 'production' }
          : { configFile: false, root, logLevel: 'silent', mode: 'production', build: { outDir: join(root, 'dist'), emptyOutDir: true } },
      );
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    return { status: 'built', ms: ms() };
  } catch (err) {
    return { status: 'failed', ms: ms(), error: err instanceof Error ? err.message : String(err) };
  }
}

// `tsx console/build.ts` (npm run build:console): always build.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await ensureConsoleBuilt({ force: true });
  if (r.status === 'failed') {
    console.error(`console build failed: ${r.error}`);
    process.exit(1);
  }
  console.log(`console built into ${CONSOLE_DIST} in ${r.ms} ms`);
}
