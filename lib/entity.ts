/**
 * Entity declarations: each entity's fields are written once, with their traits, and what other
 * modules used to write out by hand is derived from that one declaration:
 * - the lists: personal fields (erasure, retention, the audit's safety net, log redaction), the
 *   search fields, the import columns, the audited fields and their rules, the event field names;
 * - the store codec (`fromItem`): a stored item as the domain object, CorruptItemError naming the
 *   attribute (never the value) when it is missing or of the wrong type;
 * - the audit diff (`auditChanges`), the scrubbed copy (`scrubbed`) and the redacted one (`redacted`);
 * - the TypeScript types (`RecordOf`, `CreateOf`, `UpdateOf`);
 * - the request and response schemas: lib/api/entity-schemas.ts (kept apart so that a bundle that
 *   only needs a list carries no validator).
 *
 * A declaration is data: keys, indexes, queries and transactions stay in lib/store (the
 * declaration says what a field is, the store says where an item lives). Everything here is a
 * plain function of the declaration, so esbuild leaves out of a bundle what it does not call.
 */
import { CorruptItemError, type Item } from './item';

/** The API shapes a field can appear in: the create and PATCH bodies, and the answers. */
export type Shape = 'create' | 'update' | 'response';
/** How the audit log keeps a change to the field: old and new value, the field's name only, or nothing. */
export type AuditRule = 'value' | 'name' | 'none';
export type Kind = 'text' | 'email' | 'phone' | 'url' | 'uuid' | 'uuids' | 'time' | 'oneOf' | 'string' | 'int' | 'bool';

export interface Traits {
  /** Personal data: erased from the item and every copy, audited by name only, never logged. */
  personal?: boolean;
  /** Tokenized into the search index. */
  searchable?: boolean;
  /** A column of an import file. */
  importable?: boolean;
  /** The API shapes it appears in; default: answers only. `[]`: in none (a stored attribute). */
  shapes?: readonly Shape[];
  /** Default: `name` for personal fields, `value` for the others. */
  audit?: AuditRule;
  /** May be absent from the item: null in answers (or left out with `absent: 'omitted'`). */
  optional?: boolean;
  absent?: 'null' | 'omitted';
  /** Its change is an `<entity>.updated` event, named in `changed` by this key (`true`: its own name). */
  event?: string | true;
  /** Copied into the entity's denormalized copies (search entries); default true. */
  copied?: boolean;
  /** Its description in the OpenAPI document: `DOCS && '…'`, so Lambda bundles drop the text. */
  description?: string | false;
  /** The attribute whose value stands in when an older item lacks this one. */
  fallback?: string;
}

export interface Field<T = unknown> extends Traits {
  kind: Kind;
  /** Text: the most characters a request may send. */
  max?: number;
  /** oneOf: the allowed values. */
  values?: readonly string[];
  /** The value a create body that leaves the field out gets. */
  default?: T;
  /** The value an item without the attribute reads as (counters and flags written once they move). */
  ifAbsent?: T;
  /** Carries the value's type for RecordOf; never set. */
  readonly _type?: T;
}

const kind =
  <T, const K extends Kind>(k: K) =>
  <const X extends Traits & { default?: T; ifAbsent?: T } = Traits>(t?: X) =>
    ({ ...t, kind: k }) as Field<T> & X & { kind: K };

/**
 * The field kinds. A kind fixes how a request value is checked (with the API's messages,
 * lib/api/entity-schemas.ts), how an answer describes it, and how the codec reads it.
 */
export const field = {
  /** Human text: trimmed, 1 to `max` characters, no control characters, something visible. */
  text: <const X extends Traits = Traits>(max: number, t?: X) => ({ ...t, kind: 'text', max }) as Field<string> & X & { kind: 'text' },
  email: /* @__PURE__ */ kind<string, 'email'>('email'),
  phone: /* @__PURE__ */ kind<string, 'phone'>('phone'),
  /** An http(s) URL. */
  url: /* @__PURE__ */ kind<string, 'url'>('url'),
  uuid: /* @__PURE__ */ kind<string, 'uuid'>('uuid'),
  /** A list of ids (at most `max`), such as a requisition's hiring managers. */
  uuids: <const X extends Traits = Traits>(max: number, t?: X) => ({ ...t, kind: 'uuids', max }) as Field<string[]> & X & { kind: 'uuids' },
  /** An ISO 8601 UTC time, as the service writes them. */
  time: /* @__PURE__ */ kind<string, 'time'>('time'),
  /** A string the service writes, not a request field. */
  string: /* @__PURE__ */ kind<string, 'string'>('string'),
  int: /* @__PURE__ */ kind<number, 'int'>('int'),
  bool: /* @__PURE__ */ kind<boolean, 'bool'>('bool'),
  oneOf: <const V extends readonly [string, ...string[]], const X extends Traits & { default?: V[number] } = Traits>(values: V, t?: X) =>
    ({ ...t, kind: 'oneOf', values }) as unknown as Field<V[number]> & X & { kind: 'oneOf' },
};

type AnyField = Field<unknown>;
export type Fields = Record<string, AnyField>;

// ---- the types a declaration derives ----------------------------------------------------------
type Value<F> = F extends Field<infer T> ? T : never;
type Keys<F> = keyof F & string;
type OptionalKeys<F> = { [K in Keys<F>]: F[K] extends { optional: true } ? K : never }[Keys<F>];
type Omitted<F> = { [K in Keys<F>]: F[K] extends { absent: 'omitted' } ? K : never }[Keys<F>];
type Defaulted<F> = { [K in Keys<F>]: F[K] extends { default: unknown } ? K : never }[Keys<F>];
type WithShape<F, S extends Shape> = {
  [K in Keys<F>]: F[K] extends { shapes: readonly (infer X)[] } ? (S extends X ? K : never) : never;
}[Keys<F>];
type With<F, T> = { [K in Keys<F>]: F[K] extends T ? K : never }[Keys<F>];
type Without<F, T> = Exclude<Keys<F>, With<F, T>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The domain object (and answer): optional fields are null, or left out with `absent: 'omitted'`. */
export type RecordOf<F> = Flat<
  { [K in Exclude<Keys<F>, OptionalKeys<F>>]: Value<F[K]> } & {
    [K in Exclude<OptionalKeys<F>, Omitted<F>>]: Value<F[K]> | null;
  } & { [K in Omitted<F>]?: Value<F[K]> }
>;
/** A create body as validated: required fields, optional ones, and defaulted ones filled in. */
export type CreateOf<F> = Flat<
  { [K in Exclude<WithShape<F, 'create'>, OptionalKeys<F>>]: Value<F[K]> } & {
    [K in Extract<WithShape<F, 'create'>, Exclude<OptionalKeys<F>, Defaulted<F>>>]?: Value<F[K]>;
  }
>;
/** A PATCH body: any of the update fields; null clears an optional one. */
export type UpdateOf<F> = Flat<
  { [K in Exclude<WithShape<F, 'update'>, OptionalKeys<F>>]?: Value<F[K]> } & {
    [K in Extract<WithShape<F, 'update'>, OptionalKeys<F>>]?: Value<F[K]> | null;
  }
>;

// ---- the declaration --------------------------------------------------------------------------
const PERSONAL = new Map<string, readonly string[]>();
/**
 * The personal fields of a declared entity, by its name (its audit target type); none for a name
 * not declared. The audit log's safety net reads it (lib/store/audit.ts): through this registry
 * rather than the declaration itself, every function that writes an audit record does not carry
 * the candidate's declaration; each one that writes a candidate does (lib/store/candidates.ts).
 */
export const personalFieldsOf = (entity: string): readonly string[] => PERSONAL.get(entity) ?? [];

export const auditRule = (f: Traits): AuditRule => f.audit ?? (f.personal ? 'name' : 'value');
export const inShape = (f: Traits, s: Shape) => (f.shapes ?? ['response']).includes(s);

/**
 * An entity: its name (as CorruptItemError and the audit log's target type say it), its fields in
 * the order answers list them, and the lists derived from their traits.
 */
export function defineEntity<const F extends Fields>(name: string, fields: F) {
  const all = Object.keys(fields) as Keys<F>[];
  const having = <K extends Keys<F> = Keys<F>>(keep: (f: AnyField) => boolean | undefined) => all.filter((n) => keep(fields[n]!)) as K[];
  // A create body (and an import file) lists required fields, then optional ones, then defaulted ones.
  const createRank = (n: Keys<F>) => (fields[n]!.default !== undefined ? 2 : fields[n]!.optional ? 1 : 0);
  const personal = having<With<F, { personal: true }>>((f) => f.personal);
  PERSONAL.set(name, personal);
  return {
    name,
    fields,
    /** Erased from the item and every copy; audited by name; never logged. */
    personal,
    searchable: having<With<F, { searchable: true }>>((f) => f.searchable),
    /** The create body's fields, required ones first, defaulted ones last. */
    createFields: having<WithShape<F, 'create'>>((f) => inShape(f, 'create')).sort((a, b) => createRank(a) - createRank(b)),
    updateFields: having<WithShape<F, 'update'>>((f) => inShape(f, 'update')),
    responseFields: having((f) => inShape(f, 'response')),
    /** The columns (or NDJSON keys) of an import file, in the create body's order. */
    importColumns: having<With<F, { importable: true }>>((f) => f.importable).sort((a, b) => createRank(a) - createRank(b)),
    /** The fields a write records in the audit log (each by its rule, auditRule). */
    audited: having((f) => auditRule(f) !== 'none'),
    /** The fields a copy of the entity carries (search entries). */
    copied: having<Without<F, { copied: false }>>((f) => f.copied !== false),
    /** [field, its name in an event's `changed`] for the fields whose change is an `<entity>.updated`. */
    eventFields: having<With<F, { event: string | true }>>((f) => f.event !== undefined).map(
      (n) => [n, fields[n]!.event === true ? n : (fields[n]!.event as string)] as const,
    ),
  };
}

export type Entity<F extends Fields = Fields> = ReturnType<typeof defineEntity<F>>;
/** The domain object of a declared entity. */
export type RecordOfEntity<E> = E extends { fields: infer F } ? RecordOf<F> : never;

// ---- what is derived from it --------------------------------------------------------------------
const WRONG = Symbol('wrong type');
const isType: Record<Kind, (v: unknown) => boolean> = {
  text: (v) => typeof v === 'string',
  email: (v) => typeof v === 'string',
  phone: (v) => typeof v === 'string',
  url: (v) => typeof v === 'string',
  uuid: (v) => typeof v === 'string',
  uuids: (v) => Array.isArray(v) && v.every((e) => typeof e === 'string'),
  time: (v) => typeof v === 'string',
  string: (v) => typeof v === 'string',
  oneOf: () => true,
  // Any finite number reads (the store's `num`); the answers say integer.
  int: (v) => typeof v === 'number' && Number.isFinite(v),
  bool: (v) => typeof v === 'boolean',
};
const decode = (f: AnyField, v: unknown): unknown => {
  if (v === undefined || v === null) return undefined;
  if (f.kind === 'oneOf' ? !f.values!.includes(v as string) : !isType[f.kind](v)) throw WRONG;
  return v;
};

/**
 * The codec: a stored item as the domain object. A field absent from the item is null (or left
 * out, `absent: 'omitted'`) when it is optional, else the item is corrupt; so is a value of the
 * wrong type. The error names the attribute, never its value: items hold personal data.
 */
export function fromItem<F extends Fields>(entity: { name: string; fields: F }, item: Item): RecordOf<F> {
  const out: Item = {};
  for (const [n, f] of Object.entries(entity.fields)) {
    let v: unknown;
    try {
      v = decode(f, item[n]) ?? (f.fallback !== undefined ? decode(f, item[f.fallback]) : f.ifAbsent);
    } catch (e) {
      if (e === WRONG) throw new CorruptItemError(entity.name, n);
      throw e;
    }
    if (v !== undefined) out[n] = v;
    else if (!f.optional) throw new CorruptItemError(entity.name, n);
    else if (f.absent !== 'omitted') out[n] = null;
  }
  return out as RecordOf<F>;
}

export interface Change {
  field: string;
  before?: unknown;
  after?: unknown;
}

/**
 * A write's audit changes over `names` (default: every audited field), from the item as read
 * (none for a create) and as written: a field whose value differs (compared as JSON, absent as
 * null) is listed, by name alone when its rule says so, else with its values.
 */
export function auditChanges(
  entity: { fields: Fields; audited: readonly string[] },
  before: Item | undefined,
  after: Item,
  names: readonly string[] = entity.audited,
): Change[] {
  const out: Change[] = [];
  for (const n of names) {
    const b = before?.[n] ?? null;
    const a = after[n] ?? null;
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    out.push(auditRule(entity.fields[n]!) === 'name' ? { field: n } : { field: n, ...(before && { before: b }), after: a });
  }
  return out;
}

/**
 * A copy of the entity (an answer, a kept response) as erasure leaves it: each personal field it
 * holds emptied, as the item itself is: '' when the field is required, null when optional.
 */
export function scrubbed<T extends Item>(entity: { fields: Fields; personal: readonly string[] }, copy: T): T {
  const out: Item = { ...copy };
  for (const n of entity.personal) if (n in out) out[n] = entity.fields[n]!.optional ? null : '';
  return out as T;
}

/**
 * The item changes that erase the personal fields: '' for a required one, `remove` (the store's
 * attribute removal) for an optional one.
 */
export function erasure<R>(entity: { fields: Fields; personal: readonly string[] }, remove: () => R): Record<string, string | R> {
  return Object.fromEntries(entity.personal.map((n) => [n, entity.fields[n]!.optional ? remove() : '']));
}

/** A copy safe to log: each personal value present replaced by `[redacted]`. */
export function redacted(entity: { personal: readonly string[] }, obj: Item): Item {
  const out: Item = { ...obj };
  for (const n of entity.personal) if (out[n] !== undefined && out[n] !== null) out[n] = '[redacted]';
  return out;
}
