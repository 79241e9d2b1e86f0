/**
 * GET and PUT /api/settings/careers: admins read and set the careers site's name, logo URL and
 * privacy notice URL (https only), which the careers pages then show; null clears one; each change
 * is audited with what it changed, and a PUT that changes nothing records nothing. Other roles and
 * tokens are refused, and one workspace's settings never reach another's pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAudit } from '../helpers/audit';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let tenant: TestTenant;
let token: string;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  const user = await tenant.user('admin');
  admin = await stack.login(user.email, PASSWORD);
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Platform Engineer' } });
  const put = await stack.call('PUT', `/api/v1/requisitions/${req.body.data.id}/posting`, {
    token,
    body: { published: true, description: 'We build pipelines.', remote: 'no' },
  });
  expect(put.status, put.text).toBe(200);
});
afterAll(() => stack.close());

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
const SETTINGS = '/api/settings/careers';
const valid = {
  careers_name: 'Acme Careers',
  careers_logo_url: 'https://cdn.example.com/acme.png',
  careers_privacy_url: 'https://acme.example.com/privacy',
};

describe('GET and PUT /api/settings/careers', () => {
  it('starts empty, with the workspace name the pages fall back to', async () => {
    const other = await stack.tenant();
    const user = await other.user('admin');
    const res = await stack.call('GET', SETTINGS, as(await stack.login(user.email, PASSWORD)));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({
      careers_name: null,
      careers_logo_url: null,
      careers_privacy_url: null,
      workspace_name: expect.any(String),
    });
  });

  it('sets all three, which the careers pages show and no other workspace does; audited once, a repeat records nothing', async () => {
    const set = await stack.call('PUT', SETTINGS, as(admin, valid));
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toMatchObject(valid);
    expect((await stack.call('GET', SETTINGS, as(admin))).body.data).toMatchObject(valid);
    const page = await stack.call('GET', `/careers/${tenant.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Acme Careers careers');
    expect(page.text).toContain('src="https://cdn.example.com/acme.png"');
    expect(page.text).toContain('href="https://acme.example.com/privacy"');

    expect((await stack.call('PUT', SETTINGS, as(admin, valid))).status).toBe(200);
    await settleAudit();
    const log = await stack.call('GET', '/api/audit?action=settings.careers_changed', as(admin));
    expect(log.status, log.text).toBe(200);
    const records = log.body.data as { changes: { field: string; before: unknown; after: unknown }[] }[];
    expect(records).toHaveLength(1);
    expect(records[0]!.changes).toEqual([
      { field: 'careers_name', before: null, after: 'Acme Careers' },
      { field: 'careers_logo_url', before: null, after: 'https://cdn.example.com/acme.png' },
      { field: 'careers_privacy_url', before: null, after: 'https://acme.example.com/privacy' },
    ]);

    const other = await stack.tenant();
    const user = await other.user('admin');
    const theirs = await stack.call('GET', SETTINGS, as(await stack.login(user.email, PASSWORD)));
    expect(theirs.body.data.careers_name).toBeNull();
  });

  it('null clears a setting: the page falls back to the workspace name and drops the link', async () => {
    expect((await stack.call('PUT', SETTINGS, as(admin, valid))).status).toBe(200);
    const cleared = await stack.call('PUT', SETTINGS, as(admin, { ...valid, careers_name: null, careers_privacy_url: null }));
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data).toMatchObject({ careers_name: null, careers_privacy_url: null, careers_logo_url: valid.careers_logo_url });
    const page = await stack.call('GET', `/careers/${tenant.slug}`);
    expect(page.text).not.toContain('Acme Careers');
    expect(page.text).toContain(`${cleared.body.data.workspace_name} careers`);
    expect(page.text).not.toContain('Privacy notice');
  });

  it.each([
    ['careers_logo_url', 'http://cdn.example.com/acme.png'],
    ['careers_logo_url', 'javascript:alert(1)'],
    ['careers_logo_url', 'data:image/png;base64,AAAA'],
    ['careers_privacy_url', 'https://user:secret@acme.example.com/privacy'],
    ['careers_privacy_url', 'ftp://acme.example.com/privacy'],
    ['careers_name', '   '],
    ['careers_name', 'x'.repeat(101)],
  ])('refuses %s = %j with 400 naming it, and changes nothing', async (field, value) => {
    expect((await stack.call('PUT', SETTINGS, as(admin, valid))).status).toBe(200);
    const res = await stack.call('PUT', SETTINGS, as(admin, { ...valid, [field]: value }));
    expect([res.status, res.body.field], res.text).toEqual([400, field]);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await stack.call('GET', SETTINGS, as(admin))).body.data).toMatchObject(valid);
  });

  it('refuses a body without every field, and unknown fields', async () => {
    const missing = await stack.call('PUT', SETTINGS, as(admin, { careers_name: 'Only' }));
    expect(missing.status).toBe(400);
    const extra = await stack.call('PUT', SETTINGS, as(admin, { ...valid, careers_css: 'body{}' }));
    expect(extra.status).toBe(400);
  });

  it('is for admins: recruiters, hiring managers and interviewers are refused (403), a token is not a session (401)', async () => {
    for (const role of ['recruiter', 'hiring_manager', 'interviewer'] as const) {
      const user = await tenant.user(role);
      const cookie = await stack.login(user.email, PASSWORD);
      expect((await stack.call('GET', SETTINGS, as(cookie))).status, role).toBe(403);
      expect((await stack.call('PUT', SETTINGS, as(cookie, valid))).status, role).toBe(403);
    }
    expect((await stack.call('GET', SETTINGS, { token })).status).toBe(401);
    expect((await stack.call('PUT', SETTINGS, { token, body: valid })).status).toBe(401);
  });
});
