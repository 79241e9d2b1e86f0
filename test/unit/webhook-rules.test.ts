/**
 * The webhook endpoint rules (lib/domain/webhook-writes.ts decideEndpointChange) as pure
 * functions: the active-endpoint cap once the count refused, a deleted or missing endpoint.
 */
import { describe, expect, it } from 'vitest';

process.env.TABLE_NAME ??= 'unused';
const { decideEndpointChange } = await import('../../lib/domain/webhook-writes');
const { newEndpoint, MAX_ACTIVE_ENDPOINTS } = await import('../../lib/store/webhook-endpoints');
const { ConflictError, NotFoundError } = await import('../../lib/errors');

const endpoint = (over: object = {}) => ({
  ...newEndpoint('t', { url: 'https://hooks.example/x', secret: 's', events: ['candidate.created'], description: null }),
  ...over,
});
const refusal = (d: object) => ('refuse' in d ? (d as { refuse: Error }).refuse : undefined);

describe('decideEndpointChange', () => {
  it('at the cap, switching an endpoint on is refused; switching one off or editing one is not', () => {
    const off = endpoint({ active: false });
    const capped = refusal(decideEndpointChange({ endpoint: off, capped: true }, { active: true }));
    expect(capped).toBeInstanceOf(ConflictError);
    expect(capped?.message).toContain(`at most ${MAX_ACTIVE_ENDPOINTS} active`);
    expect(decideEndpointChange({ endpoint: off }, { active: true })).toEqual({ write: off });
    expect('write' in decideEndpointChange({ endpoint: endpoint(), capped: true }, { active: false })).toBe(true);
  });

  it('a deleted endpoint is a 409, a missing one a 404', () => {
    const deleted = refusal(decideEndpointChange({ endpoint: endpoint({ deleted_at: 'x', active: false }) }, {}));
    expect(deleted?.message).toContain('was deleted');
    expect(refusal(decideEndpointChange({ endpoint: undefined }, {}))).toBeInstanceOf(NotFoundError);
  });
});
