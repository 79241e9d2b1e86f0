/** A required environment variable: a missing one stops the cold start with a clear message. */
export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}
