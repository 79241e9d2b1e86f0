/**
 * A vitest reporter that prints, when the run ends, where its time went: per tier (vitest
 * project) the files, their busy time (the sum of each file's time in a worker, setup, import,
 * hooks and tests included) and its span (the first file queued to the last one done), and the
 * slowest files. `npm test` (scripts/test.ts) adds it, so `.ci/run` prints it too: with
 * TP_TIER_TIMES_FILE set it writes the figures there as JSON instead, for scripts/test.ts to print
 * at the very end, after the checks' output. `npx vitest run --reporter=default
 * --reporter=./test/helpers/tier-times.ts <files>` prints them for any run.
 *
 * vitest's JSON report starts a file's clock at its first test, after its beforeAll, so the
 * `npm start`, Chromium or DynamoDB table a file waits for there is missing from it; the module
 * diagnostics used here count it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTime {
  file: string;
  tier: string;
  /** Seconds in a worker: environment, setup files, import, hooks and tests. */
  seconds: number;
}
export interface TierTime {
  tier: string;
  files: number;
  /** Sum of its files' seconds: what the tier costs the workers. */
  busy: number;
  /** First file queued to last file done, in seconds of the run's clock. */
  span: number;
}

const SLOWEST = 12;
const s = (n: number) => `${n.toFixed(1)} s`;

export function tierTimes(files: FileTime[], spans: Map<string, [number, number]>): TierTime[] {
  const tiers = new Map<string, TierTime>();
  for (const f of files) {
    const t = tiers.get(f.tier) ?? { tier: f.tier, files: 0, busy: 0, span: 0 };
    t.files++;
    t.busy += f.seconds;
    const [from, to] = spans.get(f.tier) ?? [0, 0];
    t.span = (to - from) / 1000;
    tiers.set(f.tier, t);
  }
  return [...tiers.values()].sort((a, b) => b.busy - a.busy);
}

export function formatTierTimes(tiers: TierTime[], files: FileTime[]): string {
  const slowest = [...files].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST);
  const lines = ['', 'Time per tier (busy: the sum of its files in the workers; span: first file queued to last done):'];
  for (const t of tiers)
    lines.push(`  ${t.tier.padEnd(12)} ${String(t.files).padStart(3)} files  busy ${s(t.busy).padStart(8)}  span ${s(t.span).padStart(8)}`);
  lines.push('Slowest files:');
  for (const f of slowest) lines.push(`  ${s(f.seconds).padStart(8)}  ${f.tier.padEnd(12)} ${f.file}`);
  return `${lines.join('\n')}\n`;
}

export default class TierTimes implements Reporter {
  private root = process.cwd();
  private queued = new Map<string, number>();
  private spans = new Map<string, [number, number]>();
  private started = Date.now();

  onInit(vitest: { config: { root: string } }) {
    this.root = vitest.config.root;
    this.started = Date.now();
  }

  onTestModuleQueued(m: TestModule) {
    this.queued.set(m.moduleId, Date.now() - this.started);
  }

  onTestModuleEnd(m: TestModule) {
    const tier = m.project.name || 'default';
    const from = this.queued.get(m.moduleId) ?? 0;
    const to = Date.now() - this.started;
    const [a, b] = this.spans.get(tier) ?? [from, to];
    this.spans.set(tier, [Math.min(a, from), Math.max(b, to)]);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const files: FileTime[] = modules.map((m) => {
      const d = m.diagnostic();
      const ms = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
      return { file: path.relative(this.root, m.moduleId), tier: m.project.name || 'default', seconds: ms / 1000 };
    });
    const tiers = tierTimes(files, this.spans);
    const out = process.env.TP_TIER_TIMES_FILE;
    if (out) writeFileSync(out, JSON.stringify({ tiers, files }));
    else process.stdout.write(formatTierTimes(tiers, files));
  }
}
