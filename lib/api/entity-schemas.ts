/**
 * The request and answer schemas of a declared entity (lib/entity.ts): the create body, the PATCH
 * body and the answer, each field checked by its kind with the API's messages. lib/api/<resource>.ts
 * builds its schemas here; test/unit/entity-schemas.test.ts holds them to the hand-written ones
 * they replaced (same JSON Schema, same answers on a table of inputs).
 */
import * as z from 'zod/mini';
import { inShape, type CreateOf, type Field, type Fields, type RecordOf, type UpdateOf } from '../entity';
import { text, timestamp, uuid } from './fields';

type Declared<F extends Fields> = { fields: F; createFields: readonly string[]; updateFields: readonly string[] };

/** A request field of this kind, its messages naming it `name`. */
function input(f: Field, name: string): z.ZodMiniType {
  switch (f.kind) {
    case 'text':
      return text(name, f.max!);
    case 'email':
      return z
        .email({ error: `${name} must be an email address` })
        .check(z.maxLength(254, { error: `${name} must be at most 254 characters` }));
    case 'phone':
      return z.string({ error: `${name} must be a string` }).check(
        z.trim(),
        z.regex(/^\+?[0-9 ().\-/]{3,40}$/, {
          error: `${name} must be 3 to 40 digits, spaces or + ( ) . - /`,
        }),
      );
    case 'url':
      return z
        .url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` })
        .check(z.maxLength(2048, { error: `${name} must be at most 2048 characters` }));
    case 'uuid':
      return uuid(name);
    case 'uuids':
      return z.array(uuid(name)).check(z.maxLength(f.max!, { error: `${name} must hold at most ${f.max} ids` }));
    case 'oneOf':
      return z.enum(f.values as [string, ...string[]], { error: `${name} must be one of ${f.values!.join(', ')}` });
    default:
      // Times, counters and flags are the service's to write, never a client's.
      throw new Error(`${name}: a ${f.kind} field is not a request field`);
  }
}

/** How an answer describes a field of this kind. */
function output(f: Field): z.ZodMiniType {
  switch (f.kind) {
    case 'uuid':
      return z.uuid();
    case 'uuids':
      return z.array(z.uuid());
    case 'time':
      return timestamp;
    case 'oneOf':
      return z.enum(f.values as [string, ...string[]]);
    case 'int':
      return z.int();
    case 'bool':
      return z.boolean();
    default:
      return z.string();
  }
}

/** The create body: its fields in the declaration's create order; optional ones optional, defaults applied. */
export function createBody<F extends Fields>(e: Declared<F>) {
  return z.strictObject(
    Object.fromEntries(
      e.createFields.map((n) => {
        const f = e.fields[n]!;
        const v = input(f, n);
        return [n, f.default !== undefined ? z._default(v, f.default) : f.optional ? z.optional(v) : v];
      }),
    ),
  ) as unknown as z.ZodMiniType<CreateOf<F>, unknown>;
}

/** The PATCH body: any update field, at least one; null clears an optional one. */
export function updateBody<F extends Fields>(e: Declared<F>) {
  const names = e.updateFields;
  return z
    .strictObject(
      Object.fromEntries(
        names.map((n) => {
          const f = e.fields[n]!;
          return [n, z.optional(f.optional ? z.nullable(input(f, n)) : input(f, n))];
        }),
      ),
    )
    .check(
      z.refine((b) => Object.values(b).some((v) => v !== undefined), {
        error: `body must change at least one of ${names.join(', ')}`,
      }),
    ) as unknown as z.ZodMiniType<UpdateOf<F>, unknown>;
}

/** The answer: every response field, optional ones nullable (or left out, `absent: 'omitted'`). */
export function responseOf<F extends Fields>(e: Declared<F>) {
  return z.object(
    Object.fromEntries(
      Object.entries(e.fields)
        .filter(([, f]) => inShape(f, 'response'))
        .map(([n, f]) => {
          const s = !f.optional ? output(f) : f.absent === 'omitted' ? z.optional(output(f)) : z.nullable(output(f));
          return [n, f.description === undefined ? s : s.check(z.meta({ description: f.description || undefined }))];
        }),
    ),
  ) as unknown as z.ZodMiniObject<ShapeOf<RecordOf<F>>>;
}

/** The answer's zod shape as its type: a key an answer may leave out is an optional schema. */
type ShapeOf<R> = {
  [K in keyof R]-?: undefined extends R[K] ? z.ZodMiniOptional<z.ZodMiniType<Exclude<R[K], undefined>>> : z.ZodMiniType<R[K]>;
};
