/**
 * Who an offer waits for, as pure functions: the members whose decision the chain's current step
 * still needs (every approver of an `any` step; those of an `all` step who have not approved yet).
 * The offer item keeps that set as one string (`awaiting`), so each write that changes the chain's
 * state knows, from the offer it read and conditions on, exactly which index items of the approvers'
 * lists (lib/store/offer-awaiting.ts) exist, and puts and deletes the difference in its transaction.
 */
import { chainState, stepsFor, type ApprovalDecision, type ApprovalStep, type OfferForApproval } from './offer-approvals';

/** The members an offer waits for, at which step, since which approval round. */
export interface Awaiting {
  /** The round's time (`approval_round_at`, else `requested_at`): the index items' order. */
  round: string;
  step: number;
  users: string[];
}

/**
 * Who the offer waits for once its decisions are `decisions`: nobody unless it is pending
 * approval and a step of the chain applies to it.
 */
export function awaitingOf(
  o: OfferForApproval & { requested_at?: string | null },
  chain: readonly ApprovalStep[],
  decisions: readonly ApprovalDecision[],
): Awaiting | undefined {
  const round = o.approval_round_at ?? o.requested_at;
  if (o.status !== 'pending_approval' || !round) return undefined;
  const steps = stepsFor(chain, o);
  const state = chainState(steps, decisions, o.version, o.approval_round_at);
  if (!('at' in state)) return undefined;
  const step = steps[state.at]!;
  const approved = new Set(
    decisions
      .filter(
        (d) =>
          d.version === o.version &&
          d.step === state.at &&
          d.decision === 'approve' &&
          (!o.approval_round_at || d.at >= o.approval_round_at),
      )
      .map((d) => d.user_id),
  );
  const users = step.mode === 'any' ? [...step.approvers] : step.approvers.filter((u) => !approved.has(u));
  return users.length ? { round, step: state.at, users: [...new Set(users)].sort() } : undefined;
}

/** The set as the offer item holds it: `<round>|<step>|<user>,<user>`; undefined for nobody. */
export const encodeAwaiting = (a: Awaiting | undefined): string | undefined => a && `${a.round}|${a.step}|${a.users.join(',')}`;

/** The stored set read back (anything unreadable counts as nobody: no index item is assumed). */
export function decodeAwaiting(s: unknown): Awaiting | undefined {
  if (typeof s !== 'string') return undefined;
  const [round, step, users] = s.split('|');
  if (!round || step === undefined || !users) return undefined;
  return { round, step: Number(step), users: users.split(',') };
}

/** The index items a change puts (every member waited for after it) and deletes (those no longer waited for). */
export interface AwaitingChange {
  before?: Awaiting;
  after?: Awaiting;
}

/** Members waited for after the change and not before: their counts go up. */
export function added(c: AwaitingChange): string[] {
  const was = new Set(c.before && c.before.round === c.after?.round ? c.before.users : []);
  return (c.after?.users ?? []).filter((u) => !was.has(u));
}

/** Index items to delete: those of members no longer waited for, or of a round that ended. */
export function removed(c: AwaitingChange): { user: string; round: string }[] {
  if (!c.before) return [];
  const stay = new Set(c.after && c.after.round === c.before.round ? c.after.users : []);
  return c.before.users.filter((u) => !stay.has(u)).map((user) => ({ user, round: c.before!.round }));
}

/** Whether the change touches the lists at all (a write that does not, writes no index item). */
export const changes = (c: AwaitingChange): boolean => encodeAwaiting(c.before) !== encodeAwaiting(c.after);
