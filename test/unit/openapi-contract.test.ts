/**
 * The integration tier's second contract (test/helpers/openapi-contract.ts) holds every answer to
 * the served OpenAPI document. It compiles only the operations a file calls, against the
 * document's components: it must still refuse what the document does not allow, inline schemas
 * and referenced components alike.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiContract } from '../helpers/openapi-contract';

const doc = JSON.parse(readFileSync(new URL('../../lib/openapi.generated.json', import.meta.url), 'utf8'));
const contract = openApiContract(doc);

describe('openApiContract', () => {
  it('passes an answer the operation declares, as its schema allows', () => {
    expect(() =>
      contract.check('GET', '/api/v1/candidates?limit=5', 200, { data: [], count: 0, offset: 0, limit: 5, next_cursor: null }),
    ).not.toThrow();
    expect(() =>
      contract.check('GET', '/api/v1/candidates', 400, { error: 'limit must be a number.', code: 'invalid_field', field: 'limit' }),
    ).not.toThrow();
  });

  it("refuses a body off an operation's own schema", () => {
    expect(() => contract.check('GET', '/api/v1/candidates', 200, { data: 'not a list' })).toThrow(/off the OpenAPI document/);
  });

  it('refuses a body off a component the operation refers to (the error body)', () => {
    expect(() => contract.check('GET', '/api/v1/candidates', 400, { error: 'x', code: 'not_a_code' })).toThrow(
      /answered 400 off the OpenAPI document/,
    );
    expect(() => contract.check('GET', '/api/v1/candidates', 400, { code: 'invalid_field' })).toThrow(/off the OpenAPI document/);
  });

  it('refuses a status the operation does not declare', () => {
    expect(() => contract.check('GET', '/api/v1/candidates', 418, {})).toThrow(/does not declare/);
  });
});
