/**
 * DynamoDB calls of the console's session routes: the overview, settings, members, webhook
 * endpoints, and the audit record, which costs no call of its own: each audited write stays one
 * transaction (or batch). The session authorizer's GetItem is in every count.
 */
import { expect, it } from 'vitest';
import { settleAudit } from '../../helpers/audit';
import { PASSWORD } from '../../helpers/stack';
import { countCalls, sent, stack, useCallsFixture } from './fixture';

useCallsFixture();

it("console routes cost a small fixed number of calls, the session authorizer's GetItem included", async () => {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  const member = await t.user('recruiter');
  const cookie = await stack.login(admin.email, PASSWORD);
  const counted = async (method: string, path: string, body?: unknown) =>
    (await countCalls(method, path, { body, headers: { Cookie: cookie } })).commands.sort();
  // Authorizer GetItem + the counters' BatchGetItem (STATS and its shards) + 1 stuck Query + 1 requisitions Query.
  expect(await counted('GET', '/api/overview')).toEqual(['BatchGetItemCommand', 'GetItemCommand', ...Array(2).fill('QueryCommand')]);
  expect(await counted('GET', '/api/settings/pipeline')).toEqual(['GetItemCommand', 'GetItemCommand']);
  // The save is one transaction (the update and its audit record); the stuck index catches up in
  // the background (stuck-index.test.ts).
  expect(await counted('PUT', '/api/settings/pipeline', { stuck_days: { applied: 2 } })).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // Authorizer GetItem + one Query of the users (listing needs no membership version).
  expect(await counted('GET', '/api/members')).toEqual(['GetItemCommand', 'QueryCommand']);
  // + the version-guarded transaction + a Query of the member's sessions (none here).
  expect(await counted('PATCH', `/api/members/${member.id}`, { role: 'admin' })).toEqual(
    ['GetItemCommand', 'GetItemCommand', 'QueryCommand', 'QueryCommand', 'TransactWriteItemsCommand'].sort(),
  );
});

it('webhook endpoint writes cost a small fixed number of calls; the active count moves inside their transaction', async () => {
  const t = await stack.tenant();
  const cookie = await stack.login((await t.user('admin')).email, PASSWORD);
  const counted = (method: string, path: string, body?: unknown) => countCalls(method, path, { body, headers: { Cookie: cookie } });
  const create = (n: number) => counted('POST', '/api/webhooks', { url: `https://hooks.example.com/calls${n}` });
  // The workspace's first counted write finds no count: its transaction is cancelled, one Query of
  // the endpoints and one conditional UpdateItem derive the count, and the transaction runs again.
  const first = await create(1);
  expect(first.commands).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
    'QueryCommand',
    'UpdateItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // From then on, the authorizer's GetItem and one transaction: no listing, no read.
  const second = await create(2);
  expect(second.commands).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  const id = second.body.webhook.id;
  // Not switching it on or off: the endpoint read and one transaction (the update and its audit record).
  expect((await counted('PATCH', `/api/webhooks/${id}`, { description: 'calls' })).commands).toEqual([
    'GetItemCommand',
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  for (const active of [false, true]) {
    expect((await counted('PATCH', `/api/webhooks/${id}`, { active })).commands).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'TransactWriteItemsCommand',
    ]);
  }
  expect((await counted('DELETE', `/api/webhooks/${id}`)).commands).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  // Deleting an inactive endpoint: the transaction's condition fails and shows it inactive; one
  // more transaction (the update and its audit record).
  expect((await counted('DELETE', `/api/webhooks/${id}`)).commands).toEqual([
    'GetItemCommand',
    'TransactWriteItemsCommand',
    'TransactWriteItemsCommand',
  ]);
});

it('the audit record costs no call of its own: each audited write stays one transaction (or batch) as before', async () => {
  const t = await stack.tenant();
  const admin = await t.user('admin');
  const cookie = await stack.login(admin.email, PASSWORD);
  const headers = { Cookie: cookie };
  const counted = (method: string, path: string, body?: unknown, h: Record<string, string> = headers) =>
    countCalls(method, path, { body, headers: h });
  const AUTH = 'GetItemCommand'; // the session authorizer's read (the local gateway does not cache it)
  // Tokens: create reads the workspace's token lifetimes, then is one transaction (lookup, listing,
  // record); revoke reads the listing, then one transaction.
  const token = await counted('POST', '/api/tokens', { name: 'Audited', scopes: ['candidates:read'] });
  expect(token.commands).toEqual([AUTH, 'GetItemCommand', 'TransactWriteItemsCommand']);
  expect((await counted('DELETE', `/api/tokens/${token.body.data.id}`)).commands).toEqual([
    AUTH,
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // Members: add takes a place of the day's refusal budget, checks the email, writes one
  // transaction and gives the place back; a role change and a removal are the membership read and
  // one version-guarded transaction (then the member's sessions).
  const added = await counted('POST', '/api/members', { email: `audited-${t.slug}@example.com`, role: 'recruiter' });
  expect(added.commands).toEqual([AUTH, 'UpdateItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand']);
  const memberId = added.body.data.member.id;
  expect((await counted('PATCH', `/api/members/${memberId}`, { role: 'admin' })).commands.sort()).toEqual(
    [AUTH, 'GetItemCommand', 'QueryCommand', 'QueryCommand', 'TransactWriteItemsCommand'].sort(),
  );
  // A password reset: the member's read, one transaction, then ending sessions and lockouts.
  const reset = await counted('POST', `/api/members/${memberId}/reset-password`);
  expect(reset.commands.slice(0, 3)).toEqual([AUTH, 'GetItemCommand', 'TransactWriteItemsCommand']);
  expect(reset.commands.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(1);
  // The removal and its record are one transaction; `member.access_ended` then records what the
  // removal ended (sessions, tokens), known only once they are ended: a record of its own.
  expect((await counted('DELETE', `/api/members/${memberId}`)).commands.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(2);
  // Settings: one transaction.
  expect((await counted('PUT', '/api/settings/pipeline', { stuck_days: { applied: 3 } })).commands).toEqual([
    AUTH,
    'TransactWriteItemsCommand',
  ]);
  // Webhooks: rotate is the read and one transaction; a replay's start is one transaction.
  const hook = await counted('POST', '/api/webhooks', { url: 'https://hooks.example.com/audited' });
  const hookId = hook.body.webhook.id;
  expect((await counted('POST', `/api/webhooks/${hookId}/rotate-secret`, {})).commands).toEqual([
    AUTH,
    'GetItemCommand',
    'TransactWriteItemsCommand',
  ]);
  // Sign-in: the failure counter, the user, the tenant, then the session and its record in one
  // transaction (and the counter cleared) — as many calls as before, one of them a transaction.
  sent.length = 0;
  const signIn = await stack.call('POST', '/api/session', { body: { email: admin.email, password: PASSWORD } });
  expect(signIn.status).toBe(200);
  expect(sent.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(1);
  expect(sent).not.toContain('PutItemCommand');
  const fresh = signIn.headers.get('set-cookie')!.split(';')[0]!;
  // The audit log's first page: one Query, any filter; with two filters at most two. (Its records
  // are written from the intents by the stream consumer, which these tests run by hand.)
  await settleAudit(t.id);
  expect((await counted('GET', '/api/audit')).commands).toEqual([AUTH, 'QueryCommand']);
  expect((await counted('GET', `/api/audit?target=${hookId}`)).commands).toEqual([AUTH, 'QueryCommand']);
  const combined = await counted('GET', `/api/audit?actor=${admin.id}&action=webhook.created`);
  expect(combined.commands.filter((c) => c === 'QueryCommand').length).toBeLessThanOrEqual(2);
  expect(combined.body.data.map((r: { action: string }) => r.action)).toEqual(['webhook.created']);
  // A wrong password: a member's email gets its record, an email that is nobody's the same-sized
  // decoy transaction, so the record does not make a member's failure slower than a stranger's.
  const failed = async (email: string) => {
    sent.length = 0;
    expect((await stack.call('POST', '/api/session', { body: { email, password: 'not the password at all' } })).status).toBe(401);
    return sent.filter((c) => c === 'TransactWriteItemsCommand').length;
  };
  expect(await failed(admin.email)).toBe(1);
  expect(await failed(`nobody-${t.slug}@example.com`)).toBe(1);
  // Sign-out: the authorizer's read and one transaction (the delete and its record).
  expect((await counted('DELETE', '/api/session', undefined, { Cookie: fresh })).commands).toEqual([AUTH, 'TransactWriteItemsCommand']);
});
