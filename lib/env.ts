/**
 * Readers of one environment variable each, for lib/config.ts (the one module that reads the
 * environment). Empty counts as unset, as the stack never sets a variable to "".
 */

/** A required variable: a missing one stops the cold start with a clear message. */
export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export const optional = (name: string): string | undefined => process.env[name] || undefined;

/** A positive number up to `max`, or `fallback` when unset; anything else stops the start. */
export function positiveNumber(name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = optional(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`${name} must be a positive number up to ${max}, got "${raw}"`);
  return n;
}
