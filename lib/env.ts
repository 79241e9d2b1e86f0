/** A required environment variable: a missing one stops the cold start with a clear message. */
export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

/**
 * The Powertools service name: the `service` key of every log line and the `service` dimension of
 * every EMF metric. The stack sets POWERTOOLS_SERVICE_NAME per stage (`talent-pipeline-<stage>`,
 * infra/stages.ts), so that a dev and a prod stack in one account never add to each other's
 * metrics. It is passed to the constructors explicitly only because Powertools' own fallback,
 * `service_undefined`, would name the local runtime's and the tests' lines.
 */
export const SERVICE_NAME = process.env.POWERTOOLS_SERVICE_NAME || 'talent-pipeline';
