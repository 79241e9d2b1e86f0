/**
 * The console's overview and pipeline settings (session routes): the overview's summary and
 * open requisitions, and the stuck thresholds an admin sets and a member only reads. For each:
 * success, malformed input, roles, and that another workspace never shows or changes.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_REJECTION_REASONS, DEFAULT_STUCK_DAYS, STUCK_STAGES } from '../../../lib/model';
import { PASSWORD } from '../../helpers/stack';
import { createRequisition } from '../../../lib/store/requisitions';
import { insertCandidate } from '../../../lib/domain/candidate-writes';
import { newId } from '../../../lib/ids';
import { a, as, cookieAdminA, cookieAdminB, cookieMemberA, stack, useConsoleFixture, workspace } from './fixture';

useConsoleFixture();

const DAY_MS = 86_400_000;

describe('GET /api/overview', () => {
  it('answers the pipeline summary and the open requisitions of the caller workspace, to members too', async () => {
    const token = await a.token(['*']);
    const open = await createRequisition(a.id, { title: 'Overview Engineer', status: 'open' });
    await createRequisition(a.id, { title: 'Paused Role', status: 'on_hold' });
    const created = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { name: 'Ada Overview', req_id: open.id, stage: 'offer_sent' },
    });
    expect(created.status).toBe(201);

    const res = await stack.call('GET', '/api/overview', as(cookieMemberA));
    expect(res.status).toBe(200);
    const bearer = await stack.call('GET', '/api/v1/pipeline', { token });
    expect(res.body.data.pipeline).toEqual(bearer.body.data);
    expect(res.body.data.requisitions.map((r: { title: string }) => r.title)).toEqual(['Overview Engineer']);
    expect(res.body.data.requisitions[0]).toMatchObject({ id: open.id, candidate_count: '1', offers_pending: '0' });
    expect(res.body.data.open_requisitions).toBe(1);
  });

  it('never shows another workspace', async () => {
    const res = await stack.call('GET', '/api/overview', as(cookieAdminB));
    expect(res.status).toBe(200);
    expect(res.body.data.requisitions).toEqual([]);
    expect(res.body.data.pipeline.total_active).toBe(0);
  });

  it('needs a session: a token is not one', async () => {
    expect((await stack.call('GET', '/api/overview')).status).toBe(401);
    expect((await stack.call('GET', '/api/overview', { token: await a.token(['*']) })).status).toBe(401);
  });
});

describe('pipeline settings', () => {
  const defaults = Object.fromEntries(STUCK_STAGES.map((s) => [s, DEFAULT_STUCK_DAYS[s]]));

  it('shows the defaults for every stage that can be stuck, to members too', async () => {
    const { t, cookie } = await workspace();
    const member = await t.user('recruiter');
    for (const c of [cookie, await stack.login(member.email, PASSWORD)]) {
      const res = await stack.call('GET', '/api/settings/pipeline', as(c));
      expect(res.status).toBe(200);
      // The retention rules sit beside the thresholds, both off by default.
      expect(res.body).toEqual({
        data: {
          stuck_days: defaults,
          defaults,
          retention: { rejected_days: null, inactive_days: null },
          rejection_reasons: DEFAULT_REJECTION_REASONS,
          require_rejection_reason: false,
          auto_interview_stages: true,
          offer_required: false,
        },
      });
    }
  });

  it('an admin sets thresholds; stages left out go back to their default; 0 turns a stage off', async () => {
    const { cookie } = await workspace();
    const first = await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { applied: 1, interviewed: 0 } }));
    expect(first.status).toBe(200);
    expect(first.body.data.stuck_days).toEqual({ ...defaults, applied: 1, interviewed: 0 });
    // PUT answers the retention rules only when it set them; GET always has them.
    expect(first.body.data).not.toHaveProperty('retention');
    expect((await stack.call('GET', '/api/settings/pipeline', as(cookie))).body).toEqual({
      data: {
        ...first.body.data,
        retention: { rejected_days: null, inactive_days: null },
        rejection_reasons: DEFAULT_REJECTION_REASONS,
        require_rejection_reason: false,
        auto_interview_stages: true,
        offer_required: false,
      },
    });
    const second = await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { onboarding: 30 } }));
    expect(second.body.data.stuck_days).toEqual({ ...defaults, onboarding: 30 });
    const reset = await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: {} }));
    expect(reset.body.data.stuck_days).toEqual(defaults);
  });

  it('a threshold change shows in the overview at once', async () => {
    const { t, cookie } = await workspace();
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS - 60_000).toISOString();
    const id = newId();
    await insertCandidate(t.id, {
      id,
      name: 'Waiting Walter',
      stage: 'applied',
      created_at: twoDaysAgo,
      updated_at: twoDaysAgo,
      stage_entered_at: twoDaysAgo,
    });
    const stuckIds = async () =>
      (await stack.call('GET', '/api/overview', as(cookie))).body.data.pipeline.stuck_candidates.map((c: { id: string }) => c.id);
    expect(await stuckIds()).toEqual([]); // applied: 3 days by default
    await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { applied: 2 } }));
    expect(await stuckIds()).toEqual([id]);
    await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { applied: 0 } }));
    expect(await stuckIds()).toEqual([]);
  });

  it('a member may read but not change them', async () => {
    const before = await stack.call('GET', '/api/settings/pipeline', as(cookieMemberA));
    const res = await stack.call('PUT', '/api/settings/pipeline', as(cookieMemberA, { stuck_days: { applied: 9 } }));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/^only workspace admins may set the stuck thresholds/);
    expect((await stack.call('GET', '/api/settings/pipeline', as(cookieMemberA))).body).toEqual(before.body);
  });

  it('refuses what is not a whole number of days from 0 to 365, an unknown stage, or another shape, and keeps the settings', async () => {
    const { cookie } = await workspace();
    await stack.call('PUT', '/api/settings/pipeline', as(cookie, { stuck_days: { applied: 5 } }));
    for (const [body, message] of [
      [{ stuck_days: { applied: -1 } }, /stuck_days\.applied must be between 0 and 365/],
      [{ stuck_days: { applied: 366 } }, /stuck_days\.applied must be between 0 and 365/],
      [{ stuck_days: { applied: 2.5 } }, /stuck_days\.applied must be a whole number of days/],
      [{ stuck_days: { applied: '3' } }, /stuck_days\.applied must be a whole number of days/],
      [{ stuck_days: { applied: null } }, /stuck_days\.applied must be a whole number of days/],
      [{ stuck_days: { placed: 3 } }, /unknown body field "placed"/],
      [{ stuck_days: { rejected: 3 } }, /unknown body field "rejected"/],
      [{ stuck_days: [] }, /stuck_days must be an object/],
      [{}, /stuck_days is required/],
      [{ stuck_days: {}, extra: 1 }, /unknown body field "extra"/],
    ] as const) {
      const res = await stack.call('PUT', '/api/settings/pipeline', as(cookie, body));
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, expect.stringMatching(message)]);
    }
    expect((await stack.call('GET', '/api/settings/pipeline', as(cookie))).body.data.stuck_days.applied).toBe(5);
  });

  it('changes only the caller workspace', async () => {
    const before = await stack.call('GET', '/api/settings/pipeline', as(cookieAdminB));
    await stack.call('PUT', '/api/settings/pipeline', as(cookieAdminA, { stuck_days: { ai_screened: 11 } }));
    expect((await stack.call('GET', '/api/settings/pipeline', as(cookieAdminB))).body).toEqual(before.body);
  });
});
