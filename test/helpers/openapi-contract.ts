/**
 * Every response an integration test receives, held to the SERVED OpenAPI document by an
 * independent JSON Schema validator (ajv, draft 2020-12 as OpenAPI 3.1 uses): the status must be
 * one the operation declares, and the body must match that response's schema. The zod check in
 * stack.ts holds handlers to the route table; this one holds the published document to the
 * handlers, so a document that drifts from what the API answers fails the first test that sees it.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { matchPath, routes, type Route } from '../../lib/routes';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const DOC_ID = 'openapi.json';

/**
 * An operation's response schema, compiled on its own: its references, which point into the
 * document's components, are made to point there in the schema added as DOC_ID.
 */
function inDocument(schema: Json): Json {
  const text = JSON.stringify(schema);
  const elsewhere = /"\$ref":"#\/(?!components\/)[^"]*"/.exec(text);
  if (elsewhere) throw new Error(`a response schema refers outside the document's components: ${elsewhere[0]}`);
  return JSON.parse(text.replaceAll('"$ref":"#/', `"$ref":"${DOC_ID}#/`));
}

export interface OpenApiContract {
  check(method: string, pathAndQuery: string, status: number, body: unknown): void;
}

export function openApiContract(doc: Json): OpenApiContract {
  // strict: false because the document is not itself a schema (openapi, paths, ... are not
  // keywords); the schemas inside it are checked as they are compiled.
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  // Only the document's components are added whole: adding all of it made ajv walk every path's
  // schemas (megabytes) in each test file, where a file checks the few operations it calls.
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (path: string, method: string, status: string) => {
    const key = `${method} ${path} ${status}`;
    if (!compiled.has(key))
      compiled.set(key, ajv.compile(inDocument(doc.paths[path][method].responses[status].content['application/json'].schema)));
    return compiled.get(key)!;
  };

  return {
    check(method, pathAndQuery, status, body) {
      // The route the gateway serves: dot segments (`..`, `%2e%2e`) resolved, as the URL parser does.
      const path = new URL(pathAndQuery.split('?')[0]!, 'http://gateway').pathname;
      const route = (routes as readonly Route[]).find((r) => r.method === method && matchPath(r.path, path));
      if (!route) return; // the gateway's own 404 for a path the document does not have
      const operation = doc.paths?.[route.path]?.[method.toLowerCase()];
      if (!operation) throw new Error(`OpenAPI document has no ${method} ${route.path}`);
      const declared = operation.responses?.[String(status)];
      if (!declared) {
        throw new Error(
          `${method} ${route.path} answered ${status}, which the OpenAPI document does not declare (it declares ${Object.keys(operation.responses).join(', ')}): ${JSON.stringify(body).slice(0, 300)}`,
        );
      }
      if (!declared.content?.['application/json']) return;
      const validate = validatorFor(route.path, method.toLowerCase(), String(status));
      if (!validate(body)) {
        throw new Error(
          `${method} ${route.path} answered ${status} off the OpenAPI document: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 500)}`,
        );
      }
    },
  };
}
