/**
 * POST /api/v1/people/{id}/merge: the person `from` merged into `id` (the rules and the two steps:
 * lib/domain/merge-rules.ts). Answers the merged person's page.
 */
import { ValidationError } from '../errors';
import { nowIso } from '../ids';
import type { Person } from '../api/people';
import { auditPuts } from '../store/audit';
import { guardsOf } from '../store/people';
import { keys } from '../store/table';
import { moveRest, readMerge, writeMerge, type MergeParts } from '../store/person-merge';
import { decideMerge, type MergePlan, type MergeState } from './merge-rules';
import { getPerson } from './people';
import { auditBy, type Principal } from './principal';
import { decideAndWrite, type Retry } from './retry';

type Item = Record<string, unknown>;

/** A file's bytes under the target's key (copied, then every version of the old key deleted); none for a refused file. */
async function moveObject(tenantId: string, targetId: string, fromId: string, file: Item) {
  const [{ fileKey }, storage] = await Promise.all([import('../files/keys'), import('../files/storage')]);
  const key = fileKey(tenantId, fromId, String(file.id));
  // Already moved (a retry), or no bytes kept (refused): nothing to copy.
  if (!(await storage.headObject(key))) return;
  await storage.promoteUpload(key, fileKey(tenantId, targetId, String(file.id)), file.content_type as never);
}

export async function mergePeople(p: Principal, targetId: string, fromId: string): Promise<Person> {
  if (fromId === targetId) throw new ValidationError('from must name another person than the one merged into', { field: 'from' });
  const at = nowIso();
  await decideAndWrite<MergeState, MergePlan | 'resume', 'resume' | 'merged', MergeParts>({
    state: readMerge(p.tenantId, targetId, fromId),
    decide: (s) => {
      const d = decideMerge(targetId, fromId, s, at);
      if ('resume' in d) return { done: 'resume' };
      if ('refuse' in d) return d;
      return { write: d.plan };
    },
    write: async (plan) => {
      const moved = (plan as MergePlan).candidates.map((c) => String(c.before.id));
      const audit = auditBy(p, 'person.merged', { type: 'person', id: targetId }, [
        { field: 'from_person_id', after: fromId },
        { field: 'candidate_ids', after: moved },
      ]);
      return { outcome: await writeMerge(p.tenantId, plan as MergePlan, at, auditPuts(p.tenantId, audit)), result: 'merged' };
    },
    again: async (s, lost: Retry<MergeParts>) => {
      if ('refused' in lost && lost.refused === 'guardsIn' && lost.seen) {
        const req = String(lost.seen.SK).slice(keys.personGuardPrefix.length);
        return { ...s, duplicateOf: { candidateId: String(lost.seen.candidate_id), onRequisition: req !== 'none' } };
      }
      // The same on the target's item: a guard of theirs on a requisition a moved guard is on.
      const held = 'refused' in lost ? guardsOf(lost.all.target) : undefined;
      const clash = held && s.fromGuards.find((g) => held[g.entry] !== undefined);
      if (clash) return { ...s, duplicateOf: { candidateId: held[clash.entry]!, onRequisition: clash.entry !== 'none' } };
      return readMerge(p.tenantId, targetId, fromId);
    },
    busy: 'the two people kept changing while they were merged; try again',
  });
  await moveRest(p.tenantId, targetId, fromId, (file) => moveObject(p.tenantId, targetId, fromId, file));
  return getPerson(p, targetId);
}
