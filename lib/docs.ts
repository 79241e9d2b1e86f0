/**
 * Whether documentation text is kept. False in Lambda bundles (infra/constructs/table-function.ts
 * defines TP_API_DOCS as `off`), true everywhere else (tsx, tests, the OpenAPI generator). A route
 * line's or an entity field's documentation is written `DOCS && '…'`: esbuild inlines the constant
 * and the minifier drops the text, so summaries and error sentences reach the OpenAPI document but
 * no function (test/unit/tracing-bundles.test.ts, and the stack test on every bundle).
 */

// The console type-checks lib/model.ts, which names the entity declarations' types, without
// Node's types: this module only needs `process.env`, which esbuild's define replaces.
declare const process: { env: Record<string, string | undefined> };

export const DOCS: boolean = process.env.TP_API_DOCS !== 'off';
