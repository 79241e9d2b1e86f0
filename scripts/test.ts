/**
 * `npm test`: the checks (scripts/checks.ts: Biome and the type checks) and `vitest run` side by
 * side, since neither needs the other's output. vitest's output streams as usual, with the
 * arguments given to `npm test -- …`; the checks' output is printed whole when vitest is done.
 * Exit code 1 when either failed. Run in sequence they left a core idle for the checks' minute:
 * tsc is single-threaded, and vitest's first files wait on processes they start.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const children: ChildProcess[] = [];
const run = (cmd: string, args: string[], capture: boolean, env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(cmd, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    children.push(child);
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

const [checks, vitest] = await Promise.all([
  run('tsx', ['scripts/checks.ts'], true),
  // TP_EAGER_SYNTH: the unit tier's shared stack synth starts with the run (test/helpers/unit-global-setup.ts).
  run('vitest', ['run', ...process.argv.slice(2)], false, { ...process.env, TP_EAGER_SYNTH: '1' }),
]);
process.stdout.write(`\n${checks.output}`);
console.log(`checks: ${checks.code === 0 ? 'passed' : 'FAILED'}; vitest: ${vitest.code === 0 ? 'passed' : 'FAILED'}`);
process.exitCode = checks.code || vitest.code ? 1 : 0;
