/**
 * The one-off offer backfills on DynamoDB Local (dev/backfill-offers.ts): a sent offer from before
 * the expiry run (no due item) gets its item and then expires on a fake clock; an offer pending
 * approval from before the approvers' lists gets on them; both run twice change nothing more, and
 * leave other offers alone.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillOfferAwaiting, backfillOfferExpiry } from '../../dev/backfill-offers';
import { expireDueOffers } from '../../lib/domain/offer-expiry';
import { ddb, tableName } from '../../lib/store/client';
import { awaitingKey, awaitingPartition } from '../../lib/store/offer-awaiting';
import { dueOfferExpiries, offerExpiryKey } from '../../lib/store/offer-expiry';
import { keys } from '../../lib/store/table';
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
const EXPIRES = Math.ceil((Date.now() + 2 * DAY) / 1000) * 1000;
const expiresAt = new Date(EXPIRES).toISOString();
const TERMS = { compensation: { amount: 88000, currency: 'EUR', period: 'year' }, start_date: '2027-02-01' };

const status = async (id: string, s: string) => {
  const res = await stack.call('POST', `/api/v1/offers/${id}/status`, { token, body: { status: s } });
  expect(res.status, res.text).toBe(200);
};
async function offer(statuses: string[], terms: Record<string, unknown> = { ...TERMS, expires_at: expiresAt }): Promise<string> {
  const cand = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Backfilled Person' } });
  const made = await stack.call('POST', `/api/v1/candidates/${cand.body.data.id}/offers`, { token, body: terms });
  expect(made.status, made.text).toBe(201);
  const id = made.body.data.id as string;
  for (const s of statuses) await status(id, s);
  return id;
}
const dueOf = async (id: string) => (await dueOfferExpiries('9999-12-31T00:00:00.000Z', 1000)).filter((d) => d.offerId === id);

describe('backfillOfferExpiry', () => {
  it('gives a sent offer without a due item its item, once; the run then expires it', async () => {
    const old = await offer(['pending_approval', 'approved', 'sent']);
    // As an offer sent before the expiry run existed: no due item.
    await ddb.send(new DeleteCommand({ TableName: tableName(), Key: offerExpiryKey(tenant.id, old, expiresAt) }));
    expect(await dueOf(old)).toEqual([]);
    const current = await offer(['pending_approval', 'approved', 'sent']);
    const draft = await offer([]);
    const noExpiry = await offer(['pending_approval', 'approved', 'sent'], TERMS);

    expect(await backfillOfferExpiry()).toBe(1);
    expect(await dueOf(old)).toEqual([expect.objectContaining({ tenantId: tenant.id, offerId: old, expiresAt })]);
    expect(await dueOf(current)).toHaveLength(1);
    expect(await dueOf(draft)).toEqual([]);
    expect(await dueOf(noExpiry)).toEqual([]);
    expect(await backfillOfferExpiry()).toBe(0);

    const run = await expireDueOffers(() => new Date(EXPIRES + 60_000).toISOString());
    expect(run.expired).toBe(2);
    const after = await stack.call('GET', `/api/v1/offers/${old}`, { token });
    expect(after.body.data.status).toBe('expired');
    expect(await backfillOfferExpiry()).toBe(0);
  });
});

describe('backfillOfferAwaiting', () => {
  it('puts an offer pending approval from before the lists on its approvers’ lists, once', async () => {
    const admin = await tenant.user('admin');
    const approver = await tenant.user('recruiter');
    const adminCookie = await stack.login(admin.email, PASSWORD);
    const cookie = await stack.login(approver.email, PASSWORD);
    const chain = await stack.call('PUT', '/api/settings/offer-approvals', {
      headers: { Cookie: adminCookie },
      body: { steps: [{ approvers: [approver.id], mode: 'any' }] },
    });
    expect(chain.status, chain.text).toBe(200);
    const id = await offer(['pending_approval']);
    const listed = async () => (await stack.call('GET', '/api/offers/approvals', { headers: { Cookie: cookie } })).body;
    expect(await listed()).toMatchObject({ count: 1, data: [{ offer: { id } }] });
    // As an offer asked before the lists existed: no set on the offer, no item, no count.
    const offerItem = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.offer(tenant.id, id) }));
    const round = String(offerItem.Item?.approval_round_at);
    await ddb.send(new UpdateCommand({ TableName: tableName(), Key: keys.offer(tenant.id, id), UpdateExpression: 'REMOVE awaiting' }));
    await ddb.send(new DeleteCommand({ TableName: tableName(), Key: awaitingKey(tenant.id, approver.id, round, id) }));
    await ddb.send(new DeleteCommand({ TableName: tableName(), Key: { PK: awaitingPartition(tenant.id, approver.id), SK: 'COUNT' } }));
    expect(await listed()).toMatchObject({ count: 0, data: [] });

    expect(await backfillOfferAwaiting()).toBe(1);
    expect(await listed()).toMatchObject({ count: 1, data: [{ offer: { id } }] });
    expect(await backfillOfferAwaiting()).toBe(0);
    expect((await listed()).count).toBe(1);
    // The list goes on as if it had always been there: the decision takes the offer off it.
    const decided = await stack.call('POST', `/api/offers/${id}/approvals`, { headers: { Cookie: cookie }, body: { decision: 'approve' } });
    expect(decided.body.data.status).toBe('approved');
    expect(await listed()).toMatchObject({ count: 0, data: [] });
  });
});
