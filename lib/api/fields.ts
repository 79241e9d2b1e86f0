/**
 * What the schemas of every resource (lib/api/<resource>.ts) share: the text and number rules of
 * request fields, ids, timestamps, the `{ data }` envelope (the error body is
 * lib/api/error-body.ts). The schemas
 * validate input, type the handlers and feed the OpenAPI document (lib/openapi.ts); nothing is
 * described twice. zod/mini keeps Lambda bundles small.
 */
import * as z from 'zod/mini';
import type * as model from '../model';
import { en } from 'zod/locales';
import { ROLES, STAGES } from '../model';

// Only the English messages: the full locale set would add ~280 KB to every bundle.
z.config(en());

/**
 * An integer query parameter: digits only, then the bounds. A bare coercion took `1e2`, `0x10`,
 * ` 5 ` and an empty value (as 0) for numbers.
 */
export const intParam = (name: string, min: number, max: number) => {
  const error = `${name} must be an integer between ${min} and ${max}`;
  return z.pipe(
    z.string({ error }).check(z.regex(/^\d+$/, { error })),
    z.coerce.number<string>({ error }).check(z.int({ error }), z.gte(min, { error }), z.lte(max, { error })),
  );
};

export const uuid = (name: string) => z.uuid({ error: `${name} must be a UUID` });

export const stageEnum = z.enum(STAGES, { error: `stage must be one of ${STAGES.join(', ')}` });
/**
 * Something a person can see: a character that is neither white space, nor default-ignorable
 * (zero-width space and joiners, BOM, word joiner, bidi controls, variation selectors, Hangul
 * fillers, tags), nor a control character, nor the blank braille pattern.
 */
const VISIBLE = /[^\s\p{Default_Ignorable_Code_Point}\p{Cc}\u2800]/u;
export const hasVisible = (s: string) => VISIBLE.test(s);

/**
 * What human text may not hold: control characters (NUL, CR, LF, escapes...) and lone surrogates
 * (no valid UTF-8 stands for them), and the bidirectional embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069), which make text read in another order than it is stored
 * ("Trojan Source"). Right-to-left names need none of them; the marks (U+200E, U+200F) stay allowed.
 */
export const plainText = (name: string) => [
  z.regex(/^[^\p{Cc}\p{Cs}]*$/u, { error: `${name} must not contain control characters` }),
  z.regex(/^[^\u202A-\u202E\u2066-\u2069]*$/, { error: `${name} must not contain bidirectional control characters` }),
];

/** Human text (names): trimmed, bounded, and not made only of characters nobody can see. */
export const text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .check(
      z.trim(),
      z.minLength(1, { error: `${name} must not be empty` }),
      z.maxLength(max, { error: `${name} must be at most ${max} characters` }),
      ...plainText(name),
      z.refine(hasVisible, { error: `${name} must contain a visible character` }),
    );

/** A rejection reason's id: stable, lowercase letters, digits, `_` and `-`. */
export const reasonId = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .check(z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, { error: `${name} must be 1 to 40 lowercase letters, digits, _ or -` }));

export const EmptyQuery = z.strictObject({});

// ---- responses ---------------------------------------------------------------------------

export const timestamp = z.iso.datetime();

export const dataOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });

export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;
true satisfies Same<Role, model.Role>;

export const IdParam = z.strictObject({ id: uuid('id') });
export const Success = z.object({ success: z.boolean() });

/** The domain shapes (lib/model.ts) and their schemas agree: `true satisfies Same<A, B>` next to a schema. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The workspace user who made a token (their id and email). */
export const TokenCreator = z.object({ id: z.string(), email: z.string() });

/** A paged list's cursor (the deliveries' and the import errors'): opaque, from the previous page. */
export const pageCursor = z.optional(
  z.string({ error: 'cursor must be a string' }).check(z.maxLength(512, { error: 'cursor is not valid' })),
);
/** Null on the last page. */
export const nextCursor = z.nullable(z.string());
