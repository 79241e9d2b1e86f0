/**
 * What the two interview follow-up runs share (lib/domain/interview-moves.ts,
 * interview-reminders.ts): the items of their kind due by now, one Query, each handled and then
 * deleted, AT_ONCE at a time. A failed item stays for the next run, and the run then fails (its
 * error alarm fires). Counts only are logged. Two modules, two functions: the moves carry the
 * stage-move code and the reminders the mail client, and together they passed the bundle budget.
 */
import { logger } from '../logger';
import { dueDone, dueInterviewItems, type DueItem, type DueKind } from '../store/interview-due';

/** Due items per run: the rest are the next run's. */
export const MAX_DUE_PER_RUN = 500;
const AT_ONCE = 10;

/** Every item of `kind` due at `nowMs`, each through `handle` (what it counts), then deleted. The items found and the sum. */
export async function runDueItems(
  kind: DueKind,
  nowMs: number,
  handle: (item: DueItem) => Promise<number>,
): Promise<{ due: number; done: number }> {
  const due = await dueInterviewItems(new Date(nowMs).toISOString(), kind, MAX_DUE_PER_RUN);
  let done = 0;
  const failed: string[] = [];
  for (let i = 0; i < due.length; i += AT_ONCE) {
    await Promise.all(
      due.slice(i, i + AT_ONCE).map(async (item) => {
        try {
          done += await handle(item);
          await dueDone(item.sk);
        } catch (err) {
          // Kept for the next run; the others go on. By name only.
          failed.push((err as Error).name);
        }
      }),
    );
  }
  if (due.length) logger.info(`interview follow-ups: ${kind}`, { due: due.length, done, failed: failed.length });
  if (failed.length)
    throw new Error(`${failed.length} interview follow-ups (${kind}) failed (${[...new Set(failed)].join(', ')}); retried next run`);
  return { due: due.length, done };
}
