/**
 * lib/aws/jmespath-fields.ts stands in for Powertools' JMESPath in the idempotent functions'
 * bundles: on the expressions lib/idempotency.ts gives Idempotency, it must select exactly what
 * JMESPath selects (else a retry would hash to another key), and refuse any other expression.
 */
import { search as jmespath } from '@aws-lambda-powertools/jmespath';
import { describe, expect, it } from 'vitest';
import { LAMBDA_ALIASES } from '../../infra/constructs/table-function';
import { search } from '../../lib/aws/jmespath-fields';

const inputs = [
  { key: { tenant: 't-1', key: 'k-1' }, request: { params: { id: 'c-1' }, body: '{"name":"Ada"}' } },
  { key: { tenant: 't-1', key: 'k-1' }, request: { params: null, body: null } },
  { key: null, request: { params: null, body: null } },
  { request: { body: '' } },
  {},
  null,
  'text',
  [1, 2],
];

describe('the JMESPath stand-in', () => {
  it('selects what JMESPath selects for the expressions lib/idempotency.ts uses, and for a field path', () => {
    for (const input of inputs)
      for (const expression of ['key', 'request', 'request.params', 'request.params.id', 'missing.field'])
        expect(search(expression, input), `${expression} of ${JSON.stringify(input)}`).toEqual(jmespath(expression, input as never));
  });

  it('refuses any other expression, by name', () => {
    for (const expression of ['powertools_json(body)', 'items[0]', 'a || b', '`1`', ''])
      expect(() => search(expression, { body: '{}' }), expression).toThrow(/left out of this bundle/);
  });

  it('is what every bundle gets for the package and its functions entry', () => {
    expect(LAMBDA_ALIASES['@aws-lambda-powertools/jmespath']).toMatch(/lib\/aws\/jmespath-fields\.ts$/);
    expect(LAMBDA_ALIASES['@aws-lambda-powertools/jmespath/functions']).toMatch(/lib\/aws\/jmespath-fields\.ts$/);
  });
});
