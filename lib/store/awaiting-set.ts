/**
 * The set of members an offer waits for, as the offer item keeps it (`awaiting`), and the
 * difference a write makes to it: which index items of the approvers' lists
 * (lib/store/offer-awaiting.ts) a transaction puts and deletes. Who that set is, is the domain's
 * rule (lib/domain/offer-awaiting.ts).
 */

/** The members an offer waits for, at which step, since which approval round. */
export interface Awaiting {
  /** The round's time (`approval_round_at`, else `requested_at`): the index items' order. */
  round: string;
  step: number;
  users: string[];
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
