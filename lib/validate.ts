/**
 * Schema validation with the service's wording, shared by the HTTP boundary (lib/http.ts: path,
 * query and body) and the queue and stream adapters (lib/lambda.ts: each record's message). The
 * first issue becomes a ValidationError whose sentence starts with the field's path and whose
 * `field` names it, so an API answer and a rejected record's log line say the same thing.
 */
import type { z } from 'zod/mini';
import { ValidationError } from './errors';

const valueAt = (input: unknown, path: PropertyKey[]) =>
  path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), input);

/** A zod issue path as a client would write it: `scopes[0]`, `stuck_days.applied`. */
export const fieldPath = (path: readonly PropertyKey[]) =>
  path
    .map((k, i) =>
      typeof k === 'number'
        ? `[${k}]`
        : /^[A-Za-z_][\w]*$/.test(String(k))
          ? `${i ? '.' : ''}${String(k)}`
          : `[${JSON.stringify(String(k).slice(0, 64))}]`,
    )
    .join('');

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * Validate with a schema; the first issue becomes a 400 naming the field, as a sentence that
 * starts with the field's path (`scopes[0] must be one of …`), and with the path in `field`.
 */
export function parse<S extends z.ZodMiniType>(schema: S, input: unknown, where: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys
      .slice(0, 3)
      .map((k) => JSON.stringify(k.slice(0, 64)))
      .join(', ');
    const within = issue.path.length ? ` in ${fieldPath(issue.path)}` : '';
    throw new ValidationError(`unknown ${where} field ${names}${issue.keys.length > 3 ? ', …' : ''}${within}`, {
      field: fieldPath([...issue.path, issue.keys[0]!.slice(0, 64)]),
    });
  }
  if (!issue.path.length) {
    // The input as a whole: a body that is not an object, or a rule across fields.
    throw new ValidationError(where === 'body' && issue.code === 'invalid_type' ? 'body must be a JSON object' : issue.message);
  }
  const field = fieldPath(issue.path);
  const top = String(issue.path[0]);
  const message =
    valueAt(input, issue.path) === undefined
      ? `${field} is required`
      : issue.message.startsWith(`${field} `)
        ? issue.message
        : // Our messages name the top-level field ("scopes must be one of …"); say which element.
          issue.message.startsWith(`${top} `)
          ? `${field}${issue.message.slice(top.length)}`
          : // zod's own wording, for a check without a message of ours.
            `${field} is not valid: ${lowerFirst(issue.message)}`;
  throw new ValidationError(message, { field });
}
