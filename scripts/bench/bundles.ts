/**
 * Bundle a function exactly as the stack does (lambdaBuildOptions, with its plugins) and
 * say what each dependency costs, from esbuild's metafile (bytes each input contributes to the
 * minified output). `npm run bench` uses it; alone: `tsx scripts/bench/bundles.ts [module…]`.
 */
import { build, type BuildOptions } from 'esbuild';
import { join } from 'node:path';
import { LAMBDA_ALIASES, lambdaBuildOptions } from '../../infra/constructs/table-function';
import { lambdaPlugins } from '../../infra/constructs/lambda-bundle.mjs';

export interface BundleSize {
  bytes: number;
  /** Bytes in the output per package (node_modules) or per project directory, largest first. */
  byPackage: [string, number][];
}

/** The package an input belongs to: `@scope/name`, `name`, or the project directory (`lib/store`). */
const owner = (input: string) =>
  input.includes('node_modules/') ? input.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : input.split('/').slice(0, 2).join('/');

/**
 * esbuild's options for one function as the stack bundles it (lambdaBuildOptions, with the
 * plugins of infra/constructs/lambda-bundle.mjs), for the bench and tests that bundle a function
 * themselves; `alias` swaps in another set to compare.
 */
export const esbuildOptions = (module: string, alias: Record<string, string> = LAMBDA_ALIASES) =>
  ({ ...lambdaBuildOptions(module, alias), plugins: lambdaPlugins() }) satisfies BuildOptions;

export async function bundle(module: string, outfile: string): Promise<BundleSize> {
  const result = await build({ ...esbuildOptions(module), outfile, metafile: true });
  const output = Object.values(result.metafile.outputs)[0]!;
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
    byPackage.set(owner(input), (byPackage.get(owner(input)) ?? 0) + bytesInOutput);
  return { bytes: output.bytes, byPackage: [...byPackage].sort((a, b) => b[1] - a[1]) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'tp-bundles-'));
  for (const m of process.argv.slice(2)) {
    const b = await bundle(m, join(dir, `${m}.mjs`));
    console.log(`${m}: ${(b.bytes / 1024).toFixed(1)} KB`);
    for (const [pkg, bytes] of b.byPackage.slice(0, 15)) console.log(`  ${pkg.padEnd(44)} ${(bytes / 1024).toFixed(1).padStart(6)} KB`);
  }
}
