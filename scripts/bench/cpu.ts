/**
 * CPU time, the bench's steadiest figure: on a shared machine wall time moves with whatever else
 * runs, while the CPU a unit of work takes moves much less.
 */
import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system, ms) that process `pid` has used so far, from /proc; undefined where
 * there is no /proc. Fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on
 * Linux): a reading is exact to 10 ms, so a phase should take seconds of CPU, not milliseconds.
 * The command name (field 2) is in parentheses and may hold spaces, so fields count from its end.
 */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** This process's CPU time so far (user + system, ms), to the microsecond. */
export const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU of `pid` per unit of work between two readings, printed; or why it is not measured. */
export const perUnit = (before: number | undefined, after: number | undefined, units: number, digits = 2) =>
  before === undefined || after === undefined ? 'not measured (no /proc)' : `${((after - before) / units).toFixed(digits)} ms`;
