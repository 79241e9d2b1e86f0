/** The offer_required rule: which moves into offer_sent the setting refuses. */
import { describe, expect, it } from 'vitest';
import { decideOfferGate } from '../../lib/domain/offer-gate';
import { OFFER_STATUSES } from '../../lib/model';

describe('decideOfferGate', () => {
  it('never refuses with the setting off, nor a move to another stage', () => {
    for (const s of [undefined, ...OFFER_STATUSES]) {
      expect(decideOfferGate('offer_sent', false, s)).toBeUndefined();
      expect(decideOfferGate('interviewed', true, s)).toBeUndefined();
    }
  });

  it('with the setting on, lets in only an approved or sent offer', () => {
    const passing = OFFER_STATUSES.filter((s) => decideOfferGate('offer_sent', true, s) === undefined);
    expect(passing).toEqual(['approved', 'sent']);
    const refusal = decideOfferGate('offer_sent', true, undefined);
    expect(refusal?.status).toBe(409);
    expect(refusal).toMatchObject({ code: 'offer_required', field: 'stage' });
  });
});
