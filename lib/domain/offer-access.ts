/**
 * Who may read and write offers, as pure functions of the caller and the offer's requisition.
 * Offers hold compensation: admins and recruiters read them, and so do the hiring managers of the
 * offer's requisition; interviewers never do. Today's roles are `admin` and `member` (a member
 * does the recruiting work, so stands for a recruiter) and requisitions name no hiring managers
 * yet: more roles, and a requisition's hiring managers, change the inputs, not these rules.
 */

/** A signed-in caller as the rules see them. */
export interface OfferCaller {
  role: string;
  userId: string;
}

/** Roles that read and write every offer of the workspace. */
const RECRUITING_ROLES: readonly string[] = ['admin', 'member', 'recruiter'];
/** Roles that never read an offer, even when named a requisition's hiring manager. */
const NEVER: readonly string[] = ['interviewer'];

/**
 * Whether the caller may read an offer on a requisition whose hiring managers are `hiringManagers`
 * (user ids; empty when the requisition names none, or the offer has no requisition).
 */
export function mayReadOffer(caller: OfferCaller, hiringManagers: readonly string[] = []): boolean {
  if (NEVER.includes(caller.role)) return false;
  if (RECRUITING_ROLES.includes(caller.role)) return true;
  return hiringManagers.includes(caller.userId);
}

/** Whether the caller may draft, change or move an offer: recruiting roles only. */
export const mayWriteOffer = (caller: OfferCaller): boolean => RECRUITING_ROLES.includes(caller.role);

/** Whether deciding a read needs the requisition's hiring managers (so the domain reads them only then). */
export const readNeedsRequisition = (caller: OfferCaller): boolean =>
  !NEVER.includes(caller.role) && !RECRUITING_ROLES.includes(caller.role);
