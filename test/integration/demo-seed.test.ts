/**
 * The demo workspace `npm start` seeds (dev/seed.ts) tells one story per candidate: created when
 * it entered its first stage, a stage history whose last move is its stage entry, the days in
 * stage the console shows, and a move made afterwards only adds to that history.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, demoCandidateId } from '../../dev/demo-data';
import { startStack, type Stack } from '../helpers/stack';
import { seedDemo } from '../../dev/seed';

let stack: Stack;
let token: string;
const dir = mkdtempSync(join(tmpdir(), 'tp-demo-seed-'));
const DAY = 86_400_000;

beforeAll(async () => {
  stack = await startStack();
  token = (await seedDemo(dir)).token;
});
afterAll(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

type Stay = { stage: string; from_stage: string | null; entered_at: string; exited_at: string | null; actor: unknown };
const candidate = async (i: number) => {
  const res = await stack.call('GET', `/api/v1/candidates/${demoCandidateId(i)}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { stage: string; created_at: string; stage_entered_at: string; stage_history: Stay[] };
};

describe('the demo seed', () => {
  it('gives every candidate a history that agrees with its creation, its stage and its days in stage', async () => {
    for (const [i, [name, , stage, days]] of DEMO.candidates.entries()) {
      const c = await candidate(i);
      const h = c.stage_history;
      expect(h[0]!.entered_at, name).toBe(c.created_at);
      expect(h[0]!.stage, name).toBe('applied');
      expect(h.at(-1), name).toMatchObject({ stage, entered_at: c.stage_entered_at, exited_at: null });
      for (let k = 1; k < h.length; k++) {
        expect(h[k - 1]!.exited_at, `${name} stay ${k}`).toBe(h[k]!.entered_at);
        expect(h[k]!.from_stage, `${name} stay ${k}`).toBe(h[k - 1]!.stage);
        expect(Date.parse(h[k]!.entered_at), `${name} stay ${k}`).toBeGreaterThan(Date.parse(h[k - 1]!.entered_at));
        expect(h[k]!.actor, name).toEqual({ type: 'user', id: DEMO.adminUserId, email: DEMO.adminEmail });
      }
      // What the console shows as "N days in stage".
      expect(Math.floor((Date.now() - Date.parse(c.stage_entered_at)) / DAY), name).toBe(days);
      expect(Date.parse(c.created_at), name).toBeLessThanOrEqual(Date.parse(c.stage_entered_at));
    }
  });

  it('a move keeps the history as it was and starts the new stay where the last one ends', async () => {
    const i = DEMO.candidates.findIndex(([, , stage]) => stage === 'interview_scheduled');
    const before = await candidate(i);
    const moved = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: demoCandidateId(i), stage: 'interviewed' } });
    expect(moved.status, moved.text).toBe(200);
    const after = await candidate(i);
    expect(after.stage_history).toHaveLength(before.stage_history.length + 1);
    expect(after.stage_history.slice(0, -2)).toEqual(before.stage_history.slice(0, -1));
    const [left, now] = after.stage_history.slice(-2);
    expect(left).toMatchObject({ stage: 'interview_scheduled', entered_at: before.stage_entered_at, exited_at: now!.entered_at });
    // Entered days ago, as the seeded days in stage said: not months ago.
    expect(Math.floor((Date.parse(left!.exited_at!) - Date.parse(left!.entered_at)) / DAY)).toBe(DEMO.candidates[i]![3]);
    expect(after.created_at).toBe(before.created_at);
  });
});
