/**
 * Where a viewer's interview assignments come from: the one loader every people, notes, files and
 * activity read asks (lib/domain/person-sight.ts). Interviews do not exist yet, so it answers
 * NO_ASSIGNMENTS without a call; the interviews work replaces its body with the read of the
 * interviewer's assignments, and every read follows.
 */
import { type Assignments, NO_ASSIGNMENTS, type Viewer } from './visibility';

export async function loadAssignments(_tenantId: string, v: Viewer): Promise<Assignments> {
  if (v.role !== 'interviewer') return NO_ASSIGNMENTS;
  return NO_ASSIGNMENTS;
}
