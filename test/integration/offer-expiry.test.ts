/**
 * Offer expiry on a fake clock: a sent offer with an expiry has a due item from the moment it is
 * sent; the run leaves it alone before its `expires_at` and expires it after, as the actor
 * `system` (offers_pending drops, audited, the due item gone); an outcome recorded first takes
 * the due item with it; two runs at once expire an offer once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueOffers } from '../../lib/domain/offer-expiry';
import { dueOfferExpiries } from '../../lib/store/offer-expiry';
import { settleAudit } from '../helpers/audit';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
afterAll(() => stack.close());

const DAY = 86_400_000;
const clock = (ms: number) => () => new Date(ms).toISOString();
// Whole seconds in the future: the offer is sent on the real clock, expired on the fake one.
const EXPIRES = Math.ceil((Date.now() + 2 * DAY) / 1000) * 1000;
const expiresAt = new Date(EXPIRES).toISOString();

const TERMS = {
  compensation: { amount: 88000, currency: 'EUR', period: 'year' },
  start_date: '2027-02-01',
  employment_type: 'direct_hire',
  expires_at: expiresAt,
};

const status = (id: string, body: unknown) => stack.call('POST', `/api/v1/offers/${id}/status`, { token, body });
const read = async (id: string) => (await stack.call('GET', `/api/v1/offers/${id}`, { token })).body.data;
/** A requisition of its own per test, so its `offers_pending` counts that test's offers alone. */
const requisition = async () =>
  (await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Site Reliability Engineer', headcount: 5 } })).body.data
    .id as string;
const pending = async (reqId: string) => (await stack.call('GET', `/api/v1/requisitions/${reqId}`, { token })).body.data.offers_pending;
const dueOf = async (id: string) => (await dueOfferExpiries('9999-12-31T00:00:00.000Z', 1000)).filter((d) => d.offerId === id);

/** A candidate on the requisition with an offer on `terms`, walked to sent. */
async function sentOffer(reqId: string, terms: Record<string, unknown> = TERMS): Promise<string> {
  const n = Math.random().toString(36).slice(2, 8);
  const cand = await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Expiry ${n}`, req_id: reqId } });
  expect(cand.status, cand.text).toBe(201);
  const offer = await stack.call('POST', `/api/v1/candidates/${cand.body.data.id}/offers`, { token, body: terms });
  expect(offer.status, offer.text).toBe(201);
  const id = offer.body.data.id as string;
  for (const s of ['pending_approval', 'approved', 'sent']) expect((await status(id, { status: s })).status).toBe(200);
  return id;
}

async function expiryAudits(id: string) {
  await settleAudit();
  const admin = await tenant.user('admin');
  const cookie = await stack.login(admin.email, PASSWORD);
  const log = await stack.call('GET', '/api/audit?action=offer.status_changed&limit=100', { headers: { Cookie: cookie } });
  expect(log.status, log.text).toBe(200);
  return (log.body.data as Record<string, unknown>[]).filter(
    (r) => JSON.stringify(r).includes(id) && JSON.stringify(r).includes('"expired"'),
  );
}

describe('the offer expiry run', () => {
  it('sending an offer with an expiry puts its due item; one without an expiry has none', async () => {
    const req = await requisition();
    const id = await sentOffer(req);
    expect(await dueOf(id)).toEqual([expect.objectContaining({ tenantId: tenant.id, offerId: id, expiresAt })]);
    const { expires_at: _none, ...open } = TERMS;
    expect(await dueOf(await sentOffer(req, open))).toEqual([]);
  });

  it('leaves a sent offer alone before its expires_at', async () => {
    const id = await sentOffer(await requisition());
    await expireDueOffers(clock(EXPIRES - 60_000));
    expect((await read(id)).status).toBe('sent');
    expect(await dueOf(id)).toHaveLength(1);
  });

  it('expires it after, as system: offers_pending drops, audited, its due item gone', async () => {
    const req = await requisition();
    const id = await sentOffer(req);
    expect(await pending(req)).toBe('1');
    const run = await expireDueOffers(clock(EXPIRES + 60_000));
    expect(run.expired).toBeGreaterThanOrEqual(1);
    const after = await read(id);
    expect(after).toMatchObject({ status: 'expired', expires_at: expiresAt });
    expect(await pending(req)).toBe('0');
    expect(await dueOf(id)).toEqual([]);
    const audits = await expiryAudits(id);
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits[0])).toContain('offer-expiry');
    // Final: the matrix allows nothing after expired, and a second run finds nothing of it.
    expect((await status(id, { status: 'accepted' })).status).toBe(409);
    expect(await expireDueOffers(clock(EXPIRES + 120_000))).toEqual({ due: 0, expired: 0 });
  });

  it('an outcome recorded first takes the due item with it; the run then leaves the offer as it is', async () => {
    const req = await requisition();
    const [accepted, declined, rescinded] = [await sentOffer(req), await sentOffer(req), await sentOffer(req)];
    for (const id of [accepted, declined, rescinded]) expect(await dueOf(id)).toHaveLength(1);
    expect((await status(accepted, { status: 'accepted' })).status).toBe(200);
    expect((await status(declined, { status: 'declined', reason: 'Took another role' })).status).toBe(200);
    expect((await status(rescinded, { status: 'rescinded', reason: 'Role closed' })).status).toBe(200);
    for (const id of [accepted, declined, rescinded]) expect(await dueOf(id)).toEqual([]);
    await expireDueOffers(clock(EXPIRES + 60_000));
    expect((await read(accepted)).status).toBe('accepted');
    expect((await read(declined)).status).toBe('declined');
    expect((await read(rescinded)).status).toBe('rescinded');
  });

  it('two runs at once expire an offer once: one status change, one audit record', async () => {
    const req = await requisition();
    const id = await sentOffer(req);
    expect(await pending(req)).toBe('1');
    const runs = await Promise.all([expireDueOffers(clock(EXPIRES + 60_000)), expireDueOffers(clock(EXPIRES + 60_000))]);
    expect(runs[0].expired + runs[1].expired).toBe(1);
    expect((await read(id)).status).toBe('expired');
    expect(await pending(req)).toBe('0');
    expect(await dueOf(id)).toEqual([]);
    expect(await expiryAudits(id)).toHaveLength(1);
  });
});
