import { setPriority } from 'node:os';

/**
 * Gives process `pid` (and what it starts from now on) a lower scheduling priority: a niceness
 * of 0 to 19, higher yielding more. For work in the background of a test run whose result is
 * needed only later. Raising a priority again needs privileges, so nothing here tries to; where
 * the system refuses even this, the process keeps its priority and only the run's speed differs.
 */
export function lowerPriority(pid: number, niceness: number): void {
  try {
    setPriority(pid, niceness);
  } catch {
    // Left at its priority (see above).
  }
}
