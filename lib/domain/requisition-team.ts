/**
 * A requisition's team: its owner (`recruiter_id`) and its hiring managers, by member id. The ids
 * must name active members of the workspace: a team member who cannot sign in would be a hidden
 * grant waiting for a reactivation nobody connects with this requisition.
 */
import { ValidationError } from '../errors';
import { listUsers, type User } from '../store/users';

export type TeamInput = {
  recruiter_id?: string | null;
  hiring_manager_ids?: string[];
};

/** The team as answers carry it, from a requisition item or the fields just written. */
export const teamOf = (item: Record<string, unknown>): { recruiter_id: string | null; hiring_manager_ids: string[] } => ({
  recruiter_id: typeof item.recruiter_id === 'string' ? item.recruiter_id : null,
  hiring_manager_ids: Array.isArray(item.hiring_manager_ids) ? (item.hiring_manager_ids as string[]) : [],
});

/**
 * The team fields of a request, checked against the workspace's users: each id an active member,
 * the hiring managers once each in the order given. A 400 names the field at fault. Only the
 * fields the request sets are answered.
 */
export function decideTeam(users: readonly User[], input: TeamInput): TeamInput {
  const active = new Set(users.filter((u) => u.deactivated_at === undefined).map((u) => u.id));
  const out: TeamInput = {};
  if (input.recruiter_id !== undefined) {
    if (input.recruiter_id !== null && !active.has(input.recruiter_id))
      throw new ValidationError('recruiter_id must be the id of an active member of this workspace', { field: 'recruiter_id' });
    out.recruiter_id = input.recruiter_id;
  }
  if (input.hiring_manager_ids !== undefined) {
    const bad = input.hiring_manager_ids.findIndex((id) => !active.has(id));
    if (bad >= 0)
      throw new ValidationError(`hiring_manager_ids[${bad}] must be the id of an active member of this workspace`, {
        field: `hiring_manager_ids[${bad}]`,
      });
    out.hiring_manager_ids = [...new Set(input.hiring_manager_ids)];
  }
  return out;
}

/** decideTeam on the users as they are now: one Query, and none when the request sets no team field. */
export async function checkedTeam(tenantId: string, input: TeamInput): Promise<TeamInput> {
  if (input.recruiter_id === undefined && input.hiring_manager_ids === undefined) return {};
  return decideTeam(await listUsers(tenantId), input);
}
