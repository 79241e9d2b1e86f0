/**
 * The `openapi` function serves lib/openapi.generated.json, packed (lib/openapi.generated.packed.ts:
 * bundled, no zod converter at run time). Both must be exactly what lib/openapi.ts makes from
 * today's route table and schemas.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import {
  GENERATED_OPENAPI,
  generatedOpenApi,
  PERMISSIONS_DOC,
  permissionsDoc,
  ROUTE_LIST_FILE,
  routeList,
} from '../../scripts/openapi-json';
import { default as packed } from '../../lib/openapi.generated.packed';
import { routes } from '../../lib/routes';

it('lib/openapi.generated.json is the document lib/openapi.ts generates (run `npm run openapi` after changing a route or schema)', () => {
  expect(readFileSync(GENERATED_OPENAPI, 'utf8')).toBe(generatedOpenApi());
});

it('lib/openapi.generated.packed.ts, which the function bundles, unpacks to that same document', async () => {
  expect(JSON.parse(gunzipSync(Buffer.from(packed, 'base64')).toString('utf8'))).toEqual(JSON.parse(generatedOpenApi()));
});

it('it names every route of the table', async () => {
  const doc = JSON.parse(readFileSync(GENERATED_OPENAPI, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  for (const r of routes) expect(doc.paths[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
});

it("lib/auth/route-list.generated.ts, the authorizers' route list, is the route table's (run `npm run openapi` after changing a route)", () => {
  expect(readFileSync(ROUTE_LIST_FILE, 'utf8')).toBe(routeList());
});

it('docs/permissions.md shows the permission table as lib/permissions.ts has it (run `npm run openapi` after changing it)', () => {
  const doc = readFileSync(PERMISSIONS_DOC, 'utf8');
  expect(doc).toBe(permissionsDoc());
  // One row per route that needs a caller, each naming what the hiring manager may do.
  expect(doc).toContain('| `POST /api/v1/requisitions/{id}/status` | token `requisitions:write` | yes | yes | yes | — |');
});
