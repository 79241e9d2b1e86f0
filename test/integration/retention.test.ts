/**
 * Retention rules with a fake clock: a workspace's rules are saved through the console route (one
 * STATS write, the workspace listed for the daily run), previewed as a dry run, and run as they
 * would be days later. A dry run erases nothing; a real run erases exactly what it counted, as
 * the actor `system` with the rule's name, and leaves every count as it was.
 */
import { settleAudit } from '../helpers/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { workspacesWithRetention } from '../../lib/store/retention';
import { getCandidate } from '../../lib/store/candidates';
import { previewRetention, runRetention } from '../../lib/domain/retention';

let stack: Stack;
let ws: TestTenant;
let token: string;
let admin: string;
let member: string;
const DAY = 86_400_000;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.tenant();
  token = await ws.token(['*']);
  admin = await stack.login((await ws.user('admin')).email, PASSWORD);
  member = await stack.login((await ws.user('recruiter')).email, PASSWORD);
});
afterAll(() => stack.close());

const session = (cookie: string, method: string, path: string, body?: unknown) =>
  stack.call(method, path, { headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
async function candidate(name: string, stage = 'applied') {
  const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name, email: `${name.toLowerCase()}@example.org`, stage } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}
const get = async (id: string) => (await stack.call('GET', `/api/v1/candidates/${id}`, { token })).body.data;

describe('retention rules', () => {
  let rejected: string;
  let active: string;
  let placed: string;

  it('are off by default, saved beside the stuck thresholds by an admin only, and list the workspace for the daily run', async () => {
    rejected = await candidate('Rejectee', 'rejected');
    active = await candidate('Activa');
    placed = await candidate('Placida', 'placed');
    const before = await session(admin, 'GET', '/api/settings/pipeline');
    expect(before.body.data.retention).toEqual({ rejected_days: null, inactive_days: null });
    expect(await workspacesWithRetention()).not.toContain(ws.id);

    const refused = await session(member, 'PUT', '/api/settings/pipeline', { stuck_days: {}, retention: { rejected_days: 30 } });
    expect(refused.status).toBe(403);
    const bad = await session(admin, 'PUT', '/api/settings/pipeline', { stuck_days: {}, retention: { rejected_days: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('retention.rejected_days');

    const saved = await session(admin, 'PUT', '/api/settings/pipeline', {
      stuck_days: { applied: 4 },
      retention: { rejected_days: 30, inactive_days: 365 },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.retention).toEqual({ rejected_days: 30, inactive_days: 365 });
    expect(saved.body.data.stuck_days.applied).toBe(4);
    // A save without retention leaves the rules as they are (and its answer leaves them out).
    const stuckOnly = await session(admin, 'PUT', '/api/settings/pipeline', { stuck_days: { applied: 5 } });
    expect(stuckOnly.status, stuckOnly.text).toBe(200);
    expect(stuckOnly.body.data).not.toHaveProperty('retention');
    expect((await session(member, 'GET', '/api/settings/pipeline')).body.data.retention).toEqual({ rejected_days: 30, inactive_days: 365 });
    expect(await workspacesWithRetention()).toContain(ws.id);
  });

  it('preview what the next run would erase, erasing nothing', async () => {
    const now = await session(admin, 'GET', '/api/settings/pipeline?preview_rejected_days=30&preview_inactive_days=365');
    expect(now.status, now.text).toBe(200);
    expect(now.body.data.retention_preview).toEqual({ rejected_days: 0, inactive_days: 0, total: 0, capped: false });
    // Without preview days, no preview (and no read beyond the settings).
    expect((await session(admin, 'GET', '/api/settings/pipeline')).body.data.retention_preview).toBeUndefined();
    const bad = await session(admin, 'GET', '/api/settings/pipeline?preview_rejected_days=0');
    expect(bad.status).toBe(400);
    // A rule of one day with everything created just now still matches nothing today.
    const short = await session(admin, 'GET', '/api/settings/pipeline?preview_rejected_days=1&preview_inactive_days=1');
    expect(short.body.data.retention_preview.total).toBe(0);
  });

  it('dry run versus real run on a fake clock: the same matches, only the real run erases, as system with the rule', async () => {
    const counts = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;

    const later = Date.now() + 31 * DAY;
    const dry = await runRetention(ws.id, { dryRun: true, nowMs: later });
    expect(dry.matched).toEqual({ rejected_days: 1, inactive_days: 0 });
    expect(dry.erased).toEqual([]);
    expect((await get(rejected)).name).toBe('Rejectee');

    const real = await runRetention(ws.id, { nowMs: later });
    expect(real.matched).toEqual(dry.matched);
    expect(real.erased.map((e) => [e.id, e.rule])).toEqual([[rejected, 'rejected_days']]);
    const erased = await get(rejected);
    expect(erased).toMatchObject({ name: '', email: null, stage: 'rejected' });
    expect(erased.erased_at).toBe(real.erased[0]!.erased_at);
    // The receipt keeps who erased: the service, by the rule (what the audit record will name).
    expect(((await getCandidate(ws.id, rejected))!.erasure as { actor: unknown }).actor).toEqual({ type: 'system', rule: 'rejected_days' });
    // The audit log names the rule as the actor of the erasure, and records the run.
    await settleAudit();
    const logged = await session(admin, 'GET', `/api/audit?target=${rejected}`);
    expect(logged.status, logged.text).toBe(200);
    expect(logged.body.data.filter((r: { action: string }) => r.action === 'candidate.erased')).toEqual([
      expect.objectContaining({ actor: { type: 'system', id: 'retention:rejected_days', name: 'rejected_days' } }),
    ]);
    const runs = await session(admin, 'GET', '/api/audit?action=retention.run');
    expect(runs.body.data).toHaveLength(1);
    expect(runs.body.data[0]).toMatchObject({ actor: { type: 'system', id: 'retention' }, target: { type: 'workspace', id: ws.id } });
    expect(runs.body.data[0].changes).toContainEqual({ field: 'erased', after: 1 });
    // A second run the same day finds nothing more.
    expect((await runRetention(ws.id, { nowMs: later })).erased).toEqual([]);

    // A year on, the inactivity rule matches the two others (the erased one no longer counts).
    const yearOn = Date.now() + 366 * DAY;
    const dry2 = await runRetention(ws.id, { dryRun: true, nowMs: yearOn });
    expect(dry2.matched).toEqual({ rejected_days: 0, inactive_days: 2 });
    const preview = await session(admin, 'GET', '/api/settings/pipeline?preview_rejected_days=30&preview_inactive_days=365');
    expect(preview.body.data.retention_preview.total).toBe(0); // today, nothing
    const real2 = await runRetention(ws.id, { nowMs: yearOn });
    expect(real2.erased.map((e) => e.id).sort()).toEqual([active, placed].sort());
    expect(real2.erased.every((e) => e.rule === 'inactive_days')).toBe(true);

    const after = (await stack.call('GET', '/api/v1/pipeline', { token })).body.data;
    expect(after.stage_counts).toEqual(counts.stage_counts);
    expect(after.total_active).toBe(counts.total_active);
    const listed = await stack.call('GET', '/api/v1/candidates?limit=10', { token });
    expect(listed.body.count).toBe(3);
  });

  it('turned off, unlist the workspace', async () => {
    const off = await session(admin, 'PUT', '/api/settings/pipeline', {
      stuck_days: {},
      retention: { rejected_days: null, inactive_days: null },
    });
    expect(off.body.data.retention).toEqual({ rejected_days: null, inactive_days: null });
    expect(await workspacesWithRetention()).not.toContain(ws.id);
  });
});

describe('a person is judged by their most recent candidate', () => {
  it('the preview and the dry run count what the run erases: not an old rejected candidate whose person has a newer one', async () => {
    const other = await stack.tenant();
    const tok = await other.token(['*']);
    const make = async (body: Record<string, unknown>) => {
      const res = await stack.call('POST', '/api/v1/candidates', { token: tok, body });
      expect(res.status, res.text).toBe(201);
      return res.body.data as { id: string; person_id: string };
    };
    const req = await stack.call('POST', '/api/v1/requisitions', { token: tok, body: { title: 'Second Role' } });
    expect(req.status, req.text).toBe(201);
    const old = await make({ name: 'Twice Seen', email: 'twice@retention.example', stage: 'rejected' });
    const later = Date.now() + 31 * DAY;
    const rules = { rejected_days: 30, inactive_days: null };
    // Alone, the rejected candidate is counted and erased.
    expect((await previewRetention(other.id, rules, later)).rejected_days).toBe(1);
    // Considered again for another job (a day on the fake clock, the rule's cutoff lies before it).
    const newer = await make({ name: 'Twice Seen', email: 'twice@retention.example', req_id: req.body.data.id });
    expect(newer.person_id).toBe(old.person_id);
    expect(await previewRetention(other.id, rules, later)).toEqual({ rejected_days: 0, inactive_days: 0, total: 0, capped: false });
    expect((await runRetention(other.id, { dryRun: true, rules, nowMs: later })).matched.rejected_days).toBe(0);
    // The run agrees: nothing erased, the person and both candidates kept.
    expect((await runRetention(other.id, { rules, nowMs: later })).erased).toEqual([]);
    expect((await stack.call('GET', `/api/v1/candidates/${old.id}`, { token: tok })).body.data.name).toBe('Twice Seen');
  });
});
