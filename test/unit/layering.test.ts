/**
 * The import graph of lib/, as esbuild resolves it (its metafile: the imports a bundle really
 * follows, type-only ones erased), held to the layering rules of docs/architecture.md:
 * - no cycle between lib/ folders (each top-level lib/*.ts file counts as a node of its own);
 * - nothing in lib/ imports functions/, infra/, dev/, scripts/, console/ or test/;
 * - lib/domain, lib/webhooks, lib/imports and lib/store name no Lambda event type: the adapters
 *   of lib/lambda.ts convert records before they reach them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Folder cycles that predate the rule, each by the one edge that closes it (the import from the
 * lower folder back up). Each is a debt with an owner: the test fails when one of them is gone,
 * so that the list only shrinks, and on any cycle not closed by one of them.
 */
const KNOWN_BACK_EDGES = [
  // The API's session schemas take the password limits from lib/auth, whose policy matches routes.
  'lib/api -> lib/auth',
  // The token and session digests live beside the authorizers, which read the store.
  'lib/store -> lib/auth',
];

const FORBIDDEN = ['functions/', 'infra/', 'dev/', 'scripts/', 'console/', 'test/'];

const libFiles = (dir: string): string[] =>
  readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? libFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );

/** `lib/store/x.ts` -> `lib/store`; `lib/http.ts` stays itself. */
const nodeOf = (path: string) => {
  const parts = path.split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : path;
};

/** The node -> node edges, each with the file imports that make it. */
let edges: Map<string, string[]>;
let imports: [string, string][];

beforeAll(async () => {
  const result = await build({
    entryPoints: libFiles('lib'),
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outdir: 'layering-out',
    logLevel: 'silent',
  });
  imports = Object.entries(result.metafile.inputs).flatMap(([from, input]) =>
    input.imports.filter((i) => !i.external).map((i): [string, string] => [from, i.path]),
  );
  edges = new Map();
  for (const [from, to] of imports) {
    if (!from.startsWith('lib/') || !to.startsWith('lib/')) continue;
    const [a, b] = [nodeOf(from), nodeOf(to)];
    if (a === b) continue;
    const key = `${a} -> ${b}`;
    edges.set(key, [...(edges.get(key) ?? []), `${from} imports ${to}`]);
  }
}, 60_000);

/** The cycles of a graph: each strongly connected component of more than one node (Tarjan). */
function cycles(edgeKeys: string[]): string[][] {
  const next = new Map<string, string[]>();
  for (const k of edgeKeys) {
    const [a, b] = k.split(' -> ') as [string, string];
    next.set(a, [...(next.get(a) ?? []), b]);
    if (!next.has(b)) next.set(b, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('the import graph of lib/', () => {
  it('has no cycle between folders, but for the known back edges', () => {
    const found = cycles([...edges.keys()].filter((k) => !KNOWN_BACK_EDGES.includes(k)));
    const explain = found.map((scc) =>
      [...edges]
        .filter(([k]) => k.split(' -> ').every((n) => scc.includes(n)))
        .map(([k, why]) => `${k}: ${why.slice(0, 3).join('; ')}`)
        .join('\n'),
    );
    expect(explain).toEqual([]);
  });

  it('still has each known back edge (remove the ones that are gone from the list)', () => {
    expect(KNOWN_BACK_EDGES.filter((k) => !edges.has(k))).toEqual([]);
  });

  it('finds a cycle when there is one (the check above can fail)', () => {
    expect(cycles(['lib/a -> lib/b', 'lib/b -> lib/c', 'lib/c -> lib/a', 'lib/c -> lib/d'])).toEqual([['lib/a', 'lib/b', 'lib/c']]);
    // The import's layering: lib/domain reads lib/imports (the file reader, the queue), never the reverse.
    expect(edges.has('lib/domain -> lib/imports')).toBe(true);
    expect(edges.get('lib/imports -> lib/domain')).toBeUndefined();
  });

  it('imports nothing from functions/, infra/, dev/, scripts/, console/ or test/', () => {
    const out = imports.filter(([from, to]) => from.startsWith('lib/') && FORBIDDEN.some((d) => to.startsWith(d)));
    expect(out).toEqual([]);
  });

  it('keeps Lambda event types out of lib/domain, lib/webhooks, lib/imports and lib/store', () => {
    const named = ['lib/domain', 'lib/webhooks', 'lib/imports', 'lib/store']
      .flatMap(libFiles)
      .filter((f) => /from ['"]aws-lambda['"]/.test(readFileSync(join(PROJECT_ROOT, f), 'utf8')));
    expect(named).toEqual([]);
  });
});
