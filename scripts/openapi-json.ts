/**
 * `npm run openapi`: writes the OpenAPI document (lib/openapi.ts, from the route table and its
 * zod schemas) to lib/openapi.generated.json, which the `openapi` function bundles. Converting
 * schemas at run time needs zod's full JSON Schema converter, ~417 KB of the function's bundle
 * (esbuild's metafile); the JSON is ~40 KB. test/unit/openapi-generated.test.ts fails while the
 * file is stale, so run this after changing a route or a schema.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../lib/openapi';

export const GENERATED_OPENAPI = fileURLToPath(new URL('../lib/openapi.generated.json', import.meta.url));
/** The document as the file holds it: the server URL is filled in per request. */
export const generatedOpenApi = () => `${JSON.stringify(openApiDocument('/'), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(GENERATED_OPENAPI, generatedOpenApi());
  console.log(`wrote ${GENERATED_OPENAPI}`);
}
