/**
 * A requisition's team in its events (lib/webhooks/events.ts): carried as ids on every
 * requisition event, and a team change is a `requisition.updated` naming the team fields, while a
 * write that leaves the same list (a new array with the same ids) is none.
 */
import { expect, it } from 'vitest';
import { EVENT_DATA } from '../../lib/webhooks/payloads';
import { eventsFromChange } from '../../lib/webhooks/events';

const base = {
  type: 'requisition',
  tenant_id: 't1',
  id: '01a21c29-6adc-732d-8c94-91df4b3e8c8d',
  title: 'Engineer',
  status: 'open',
  created_at: '2026-11-27T08:00:00.000Z',
  updated_at: '2026-11-27T08:00:00.000Z',
  actor_type: 'user',
  actor_id: 'u1',
};
const hm = '01a21c29-6adc-732d-8c94-91df4b3e8c8e';
const change = (before: object, after: object) =>
  eventsFromChange({
    id: 'e1',
    name: 'MODIFY',
    sequence: '1',
    keys: {},
    oldImage: { ...base, ...before },
    newImage: { ...base, ...after },
  });

it('carries the team as ids, and a team change is an update naming it', () => {
  const [created] = eventsFromChange({ id: 'e0', name: 'INSERT', sequence: '0', keys: {}, newImage: { ...base, recruiter_id: hm } });
  expect(created!.data).toMatchObject({ recruiterId: hm, hiringManagerIds: [] });
  expect(EVENT_DATA['requisition.created'].safeParse(created!.data).success).toBe(true);
  const [updated] = change({ hiring_manager_ids: [] }, { hiring_manager_ids: [hm] });
  expect(updated).toMatchObject({ type: 'requisition.updated', data: { changed: ['hiringManagerIds'], hiringManagerIds: [hm] } });
  expect(EVENT_DATA['requisition.updated'].safeParse(updated!.data).success).toBe(true);
  expect(change({ hiring_manager_ids: [hm] }, { hiring_manager_ids: [hm] })).toEqual([]);
});

it('a posting write is an update naming posting, carrying no posting content', () => {
  const at = '2026-11-27T09:00:00.000Z';
  const [updated] = change({}, { posting_at: at, posting_published: true, updated_at: at });
  expect(updated).toMatchObject({ type: 'requisition.updated', data: { changed: ['posting'], updatedAt: at } });
  expect(EVENT_DATA['requisition.updated'].safeParse(updated!.data).success).toBe(true);
  // The mirror alone (never written without posting_at) is no change a receiver sees.
  expect(change({ posting_at: at }, { posting_at: at, posting_published: false })).toEqual([]);
});
