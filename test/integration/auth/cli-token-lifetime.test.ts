/**
 * The admin CLI's tokens expire like the console's: after the workspace's default token lifetime
 * (a setting), or after the days asked for with `--expires-in-days`, never beyond the workspace's
 * maximum. Its audit record names the kind and the expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCreateToken } from '../../../lib/domain/admin-cli';
import { settleAudit } from '../../helpers/audit';
import { PASSWORD, startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
const DAY = 86_400_000;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });

describe('admin token create', () => {
  it("lives the workspace's default lifetime; --expires-in-days chooses another within the maximum", async () => {
    const t = await stack.tenant();
    const admin = await t.user('admin');
    const cookie = await stack.login(admin.email, PASSWORD);
    const now = Date.now();
    const byDefault = await cliCreateToken(t.slug, 'nightly export', ['pipeline:read'], undefined, undefined, now);
    expect(byDefault.kind).toBe('workspace');
    expect(Date.parse(byDefault.expires_at!) - now).toBe(90 * DAY);
    expect((await stack.call('PUT', '/api/settings/tokens', as(cookie, { default_days: 7, max_days: 30 }))).status).toBe(200);
    const shorter = await cliCreateToken(t.slug, 'nightly export', ['pipeline:read'], undefined, undefined, now);
    expect(Date.parse(shorter.expires_at!) - now).toBe(7 * DAY);
    const chosen = await cliCreateToken(t.slug, 'quarterly', ['pipeline:read'], undefined, 30, now);
    expect(Date.parse(chosen.expires_at!) - now).toBe(30 * DAY);
    await expect(cliCreateToken(t.slug, 'too long', ['pipeline:read'], undefined, 31, now)).rejects.toMatchObject({
      status: 400,
      field: 'expires_at',
    });
    // The token works, and the list shows its expiry.
    expect((await stack.call('GET', '/api/v1/pipeline', { token: chosen.token })).status).toBe(200);
    const listed = (await stack.call('GET', '/api/tokens', as(cookie))).body.data as Array<Record<string, unknown>>;
    expect(listed.find((r) => r.id === chosen.id)?.expires_at).toBe(chosen.expires_at);
    await settleAudit();
    const audit = (await stack.call('GET', `/api/audit?action=token.created&target=${chosen.id}`, as(cookie))).body.data;
    expect(audit[0].changes).toContainEqual({ field: 'expires_at', after: chosen.expires_at });
  });
});
