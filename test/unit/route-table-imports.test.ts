/**
 * No function bundles the route table or every resource's schemas: code under functions/ and
 * lib/ imports a route line and a schema's value from its resource's module in lib/api/, and
 * `lib/routes.ts` and the `lib/schemas.ts` barrel only as types (erased from bundles). The one
 * exception, the OpenAPI generator, no function imports. A value import of either would put
 * every resource's lines and schemas back into a bundle ([Architecture: the API by resource]).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
/** Import statements (one or many lines) naming the route table or the schema barrel. */
const TABLE_IMPORT = /^import\s+(type\s+)?[^;]*?from\s+'(?:\.\.?\/)+(?:lib\/)?(routes|schemas)';/gms;
const GENERATOR = ['lib/openapi.ts'];

it('functions and lib import the route table and the schema barrel as types only', () => {
  const files = [...sources('functions'), ...sources('lib')];
  expect(files.length).toBeGreaterThan(100);
  const valueImports = files
    .filter((f) => !GENERATOR.includes(f) && f !== 'lib/routes.ts' && f !== 'lib/schemas.ts')
    .flatMap((f) => [...readFileSync(join(ROOT, f), 'utf8').matchAll(TABLE_IMPORT)].filter((m) => !m[1]).map((m) => `${f}: ${m[0]}`));
  expect(valueImports).toEqual([]);
  // The pattern sees the imports it must: the generator's, and the domain's type imports.
  expect(readFileSync(join(ROOT, 'lib/openapi.ts'), 'utf8').match(TABLE_IMPORT)?.length).toBe(2);
  expect(readFileSync(join(ROOT, 'lib/domain/candidates.ts'), 'utf8').match(TABLE_IMPORT)?.length).toBe(1);
});

it('no module that a function bundles imports the generator', () => {
  const files = [...sources('functions'), ...sources('lib')].filter((f) => !f.startsWith('lib/openapi'));
  const importers = files.filter((f) => /from\s+'(?:\.\.?\/)+(?:lib\/)?openapi'/.test(readFileSync(join(ROOT, f), 'utf8')));
  expect(importers).toEqual([]);
});
