/**
 * `npm test`: the checks (scripts/checks.ts: Biome and the type checks) and `vitest run` side by
 * side, since neither needs the other's output. vitest's output streams as usual, with the
 * arguments given to `npm test -- …`; the checks' output is printed whole when vitest is done.
 * Exit code 1 when either failed. Run in sequence they left a core idle for the checks' minute:
 * tsc is single-threaded, and vitest's first files wait on processes they start.
 *
 * Last, it prints where the time went: each tier's (test/helpers/tier-times.ts, a reporter added
 * to whatever reporters were asked for) and each check's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lowerPriority } from '../test/helpers/priority';
import { formatTierTimes, type FileTime, type TierTime } from '../test/helpers/tier-times';

const children: ChildProcess[] = [];
const run = (cmd: string, args: string[], capture: boolean, env: NodeJS.ProcessEnv = process.env, niceness = 0) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(cmd, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    children.push(child);
    if (niceness && child.pid) lowerPriority(child.pid, niceness);
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${cmd}: ${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });

// A stop asked of `npm test` reaches both (a terminal's Ctrl-C reaches them anyway).
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const c of children) c.kill(signal);
  });

const args = process.argv.slice(2);
// Asking for a reporter replaces vitest's default one: keep it unless others were asked for.
const reporters = args.some((a) => a.startsWith('--reporter')) ? [] : ['--reporter=default'];
const timesDir = mkdtempSync(path.join(tmpdir(), 'tp-tier-times-'));
const timesFile = path.join(timesDir, 'times.json');
const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;
const [checks, vitest] = await Promise.all([
  // The checks at the lowest priority (their children inherit it): the test files compete for two
  // cores from the first second, and the checks' result is only read at the end, so they take
  // the CPU the test files leave idle (files waiting on timers, processes, DynamoDB Local).
  run('tsx', ['scripts/checks.ts'], true, process.env, 19).then((r) => ({ ...r, seconds: seconds() })),
  // TP_EAGER_SYNTH: the unit tier's shared stack synth starts with the run (test/helpers/unit-global-setup.ts).
  run('vitest', ['run', ...reporters, '--reporter=./test/helpers/tier-times.ts', ...args], false, {
    ...process.env,
    TP_EAGER_SYNTH: '1',
    TP_TIER_TIMES_FILE: timesFile,
  }).then((r) => ({ ...r, seconds: seconds() })),
]);
process.stdout.write(`\n${checks.output}`);
try {
  const { tiers, files } = JSON.parse(readFileSync(timesFile, 'utf8')) as { tiers: TierTime[]; files: FileTime[] };
  process.stdout.write(formatTierTimes(tiers, files));
} catch {
  // vitest stopped before its reporters ran: its own output says why.
}
rmSync(timesDir, { recursive: true, force: true });
console.log(`vitest ${vitest.seconds.toFixed(1)} s, checks ${checks.seconds.toFixed(1)} s (each check's time above)`);
console.log(`checks: ${checks.code === 0 ? 'passed' : 'FAILED'}; vitest: ${vitest.code === 0 ? 'passed' : 'FAILED'}`);
process.exitCode = checks.code || vitest.code ? 1 : 0;
