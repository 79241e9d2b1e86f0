/** The demo workspace's fixed data; ids are fixed so that events/ refers to real records. */
import { type ReqStatus, type Stage, STAGES } from '../lib/model';

/** A UUIDv7 for a fixed time and serial, so seed ids sort by their creation time. */
export const seedId = (iso: string, serial: number) => {
  const ms = Date.parse(iso).toString(16).padStart(12, '0');
  const tail = serial.toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7000-8000-${tail}`;
};

export const DEMO = {
  slug: 'demo',
  name: 'Demo Workspace',
  adminEmail: 'admin@demo.example',
  adminUserId: seedId('2026-01-05T09:00:00.000Z', 2),
  tenantId: seedId('2026-01-05T09:00:00.000Z', 1),
  requisitions: [
    {
      id: seedId('2026-01-06T09:00:00.000Z', 11),
      title: 'Senior Backend Engineer',
      department: 'Engineering',
      location: 'Remote (EU)',
      job_type: 'direct_hire',
      status: 'open',
      headcount: 2,
    },
    {
      id: seedId('2026-01-07T09:00:00.000Z', 12),
      title: 'Product Designer',
      department: 'Design',
      location: 'Berlin',
      job_type: 'direct_hire',
      status: 'open',
      headcount: 1,
    },
    {
      id: seedId('2026-01-08T09:00:00.000Z', 13),
      title: 'Data Analyst',
      department: 'Analytics',
      location: 'New York',
      job_type: 'contract',
      status: 'open',
      headcount: 2,
    },
    {
      id: seedId('2026-01-09T09:00:00.000Z', 14),
      title: 'Engineering Manager',
      department: 'Engineering',
      location: 'London',
      job_type: 'direct_hire',
      status: 'on_hold',
      headcount: 1,
    },
  ] satisfies { id: string; title: string; department: string; location: string; job_type: string; status: ReqStatus; headcount: number }[],
  /** [name, requisition index or -1, stage, days in stage] */
  candidates: [
    ['Ada Lovelace', 0, 'interview_scheduled', 9],
    ['Grace Hopper', 0, 'offer_sent', 6],
    ['Alan Turing', 0, 'applied', 1],
    ['Katherine Johnson', 1, 'interviewed', 2],
    ['Margaret Hamilton', 1, 'ai_screened', 4],
    ['Linus Pauling', 2, 'applied', 5],
    ['Radia Perlman', 0, 'onboarding', 3],
    ['Barbara Liskov', 1, 'offer_accepted', 2],
    ['Dennis Ritchie', 2, 'placed', 30],
    ['Ken Thompson', 0, 'rejected', 10],
    ['Frances Allen', -1, 'applied', 0],
    ['Tim Berners-Lee', 2, 'interviewed', 1],
  ] as [string, number, Stage, number][],
};

/** The stages a demo candidate went through to reach `stage`, in order (the rejected ones were screened first). */
const pathTo = (stage: Stage): Stage[] => {
  const forward = STAGES.filter((s) => s !== 'rejected');
  return stage === 'rejected' ? ['applied', 'ai_screened', 'rejected'] : forward.slice(0, forward.indexOf(stage) + 1);
};

/**
 * Demo candidate `i`'s story, relative to `now` (the first start): it entered its current stage
 * `days` days (and an hour) ago, each earlier stage lasted 2 to 4 days, and it was created when it
 * entered the first one. The moves are what its stage history records, the last one at
 * `stage_entered_at`; so the days in stage, the history and the creation time tell one story, and
 * a move made later only adds to it.
 */
export function demoHistory(
  i: number,
  now: number,
): { created_at: string; stage_entered_at: string; moves: { from: Stage; to: Stage; at: string }[] } {
  const [, , stage, days] = DEMO.candidates[i]!;
  const day = 86_400_000;
  const path = pathTo(stage);
  let at = now - days * day - 3_600_000;
  const stage_entered_at = new Date(at).toISOString();
  const moves: { from: Stage; to: Stage; at: string }[] = [];
  for (let k = path.length - 1; k > 0; k--) {
    moves.unshift({ from: path[k - 1]!, to: path[k]!, at: new Date(at).toISOString() });
    // The stay in path[k - 1] before it: 2 to 4 days and a few hours, different per candidate.
    at -= (2 + ((i + k) % 3)) * day + ((i * 5 + k * 3) % 7) * 3_600_000;
  }
  return { created_at: new Date(at).toISOString(), stage_entered_at, moves };
}

export const demoCandidateId = (i: number) => seedId(`2026-02-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`, 100 + i);
