/**
 * The bench's closing table: every tracked figure beside its goal, and which sections run.
 * A figure that could not be measured is "not measured (reason)", never a number.
 */

/** A measured number, or why there is none. */
export type Figure = { value: number } | { reason: string };

export const show = (f: Figure, unit: string, digits = 1) =>
  'value' in f ? `${f.value.toFixed(digits)}${unit}` : `not measured (${f.reason})`;

/** Whether a goal is met; `tracked`: a figure shown to be followed, with no goal set; undefined: not measured. */
type Met = boolean | 'tracked' | undefined;
const goals: { figure: string; now: string; goal: string; met: Met }[] = [];

/** A tracked figure, what it is now, its goal, and whether it is met. */
export const goal = (figure: string, now: string, target: string, met: Met) => goals.push({ figure, now, goal: target, met });

/** `BENCH_SECTIONS=5,6` runs only those sections; the others' figures say they were skipped. */
const only = process.env.BENCH_SECTIONS?.split(',').map((x) => x.trim());
export const want = (section: string) => !only || only.includes(section);
export const skipped = (figure: string, target: string) => goal(figure, 'not measured: skipped by BENCH_SECTIONS', target, undefined);

export function printGoals(log: (line: string) => void = console.log) {
  log('\nGoals, figure by figure');
  const w = Math.max(...goals.map((g) => g.figure.length));
  const nw = Math.max(...goals.map((g) => g.now.length));
  for (const g of goals)
    log(
      g.met === 'tracked'
        ? `  ${g.figure.padEnd(w)}  ${g.now.padEnd(nw)}  (tracked, no goal)`
        : `  ${g.figure.padEnd(w)}  ${g.now.padEnd(nw)}  goal: ${g.goal}  ${g.met === undefined ? '(not measured)' : g.met ? 'met' : 'NOT met'}`,
    );
}
