/**
 * What the idempotent functions' bundles use in place of `@aws-lambda-powertools/jmespath` (an
 * esbuild alias, LAMBDA_ALIASES in infra/constructs/table-function.ts). Powertools Idempotency
 * picks the key and the payload out of its input with JMESPath, and lib/idempotency.ts names them
 * by a bare field (`key`, `request`): the full JMESPath lexer, parser and interpreter were ~23 KB
 * of each idempotent function's bundle. A field path (`a.b`) is all this reads; any other
 * expression throws, by name, instead of selecting something else
 * (test/unit/jmespath-fields.test.ts).
 */
const FIELD_PATH = /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/;

export function search(expression: string, data: unknown): unknown {
  if (!FIELD_PATH.test(expression))
    throw new Error(`JMESPath "${expression}" is left out of this bundle (lib/aws/jmespath-fields.ts reads field paths only)`);
  let value = data;
  for (const name of expression.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[name] ?? null;
  }
  return value;
}

/** Idempotency's config makes one for custom functions; a field path calls none. */
export class PowertoolsFunctions {}
