/**
 * Readers of the environment, for lib/config.ts (the one module that reads it). Each setting is a
 * variable and a parse of its raw value; empty counts as unset, as the stack never sets a variable to "".
 */

export const raw = (name: string): string | undefined => process.env[name] || undefined;

/** A required variable: a missing one stops the cold start with a clear message. */
export function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export const optional = (value: string | undefined): string | undefined => value;

/** A positive number up to `max`, or `fallback` when unset; anything else stops the start. */
export const positiveNumber =
  (fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  (value: string | undefined, name: string): number => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`${name} must be a positive number up to ${max}, got "${value}"`);
    return n;
  };
