/** The OpenAPI document declares X-Request-Id on every response of every operation. */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lib/openapi';

describe('OpenAPI: X-Request-Id', () => {
  it('is a declared header of every response of every operation', () => {
    const doc = openApiDocument() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, { $ref?: string }> }> }>>;
      components: { headers: Record<string, { schema: unknown }> };
    };
    expect(doc.components.headers.XRequestId!.schema).toEqual({ type: 'string' });
    let seen = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, res] of Object.entries(op.responses)) {
          expect(res.headers?.['X-Request-Id']?.$ref, `${method} ${path} ${status}`).toBe('#/components/headers/XRequestId');
          seen++;
        }
      }
    }
    expect(seen).toBeGreaterThan(100);
  });
});
