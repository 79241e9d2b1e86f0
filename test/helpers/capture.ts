/**
 * The one output capture of the tests, for log-line and leak checks: what this process writes to
 * stdout and stderr (and with `console: true`, what console.* prints, which vitest would
 * otherwise intercept before it reaches a stream), as text. `echo` still passes the writes on.
 * Captures nest: `restore()` puts back what was there when this one started.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

export interface CapturedOutput {
  /** Every write and console call, in order, as text. */
  chunks: string[];
  text: () => string;
  /** The JSON lines written (a line per structured log entry or EMF metric). */
  jsonLines: () => Json[];
  restore: () => void;
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

export function captureOutput(opts: { echo?: boolean; console?: boolean; stderr?: boolean; into?: string[] } = {}): CapturedOutput {
  const chunks = opts.into ?? [];
  const asText = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
  const streams = opts.stderr === false ? [process.stdout] : [process.stdout, process.stderr];
  const writes = streams.map((stream) => [stream, stream.write] as const);
  for (const [stream, original] of writes) {
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(asText(chunk));
      return opts.echo ? (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest) : true;
    }) as typeof process.stdout.write;
  }
  const consoles = opts.console ? CONSOLE_METHODS.map((m) => [m, console[m]] as const) : [];
  for (const [m] of consoles) {
    console[m] = (...args: unknown[]) =>
      void chunks.push(args.map((a) => (a instanceof Error ? `${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  }
  const text = () => chunks.join('');
  return {
    chunks,
    text,
    jsonLines: () =>
      text()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Json),
    restore: () => {
      for (const [stream, original] of writes) stream.write = original;
      for (const [m, original] of consoles) console[m] = original as never;
    },
  };
}
