/** Poll `probe` until it answers something truthy, and answer that; fail naming `what` after `timeoutMs`. */
import { setTimeout as sleep } from 'node:timers/promises';

type Truthy<T> = Exclude<T, undefined | null | false | 0 | ''>;

export async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 20_000, everyMs = 50): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
