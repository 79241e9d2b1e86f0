/**
 * Update expressions from a plain object of changes, in the shape of dynamodb-toolbox's update
 * syntax (`{ name: 'x', count: $add(1), old: $remove() }`) without the dependency: a few lines
 * here instead of a library in every Lambda bundle. Attribute names and values always go through
 * placeholders, so any attribute name (reserved words such as `status`, `position`) is safe.
 *
 * A plain value SETs the attribute; the markers below ask for something else. An undefined value
 * is skipped, so optional changes can be spread in without filtering.
 */

const OP = Symbol('update-op');
type Op =
  | { [OP]: 'remove' }
  | { [OP]: 'add'; value: number }
  | { [OP]: 'ifNotExists'; value: unknown }
  | { [OP]: 'increment'; value: number }
  | { [OP]: 'entries'; set: Record<string, unknown>; remove: string[] };

/** REMOVE the attribute. */
export const $remove = (): Op => ({ [OP]: 'remove' });
/** ADD to a number attribute (an absent one counts as 0); atomic under concurrent writers. */
export const $add = (value: number): Op => ({ [OP]: 'add', value });
/** SET the attribute only if the item does not have it yet. */
export const $ifNotExists = (value: unknown): Op => ({ [OP]: 'ifNotExists', value });
/** SET a number attribute to itself (0 when absent) plus `value`, within the SET clause. */
export const $increment = (value: number): Op => ({ [OP]: 'increment', value });

/** SET and REMOVE entries of a map attribute, which must exist (DynamoDB refuses a path into a missing map). */
export const $entries = (set: Record<string, unknown>, remove: string[] = []): Op => ({ [OP]: 'entries', set, remove });

export type Changes = Record<string, unknown>;

/** A condition written by hand; its placeholders must not look like the generated `#u0`/`:u0`. */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

export interface UpdateParts {
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

const isOp = (v: unknown): v is Op => typeof v === 'object' && v !== null && OP in v;
const GENERATED = /^[#:]u\d+$/;

/**
 * The UpdateExpression (and the condition, if any) for `changes`, ready to spread into an
 * UpdateCommand or a transaction's Update. Empty name and value maps are left out: DynamoDB
 * refuses them.
 */
export function update(changes: Changes, condition?: Condition): UpdateParts {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const set: string[] = [];
  const remove: string[] = [];
  const add: string[] = [];
  let n = 0;
  const value = (v: unknown) => {
    const p = `:u${n++}`;
    values[p] = v;
    return p;
  };
  for (const [attr, change] of Object.entries(changes)) {
    if (change === undefined) continue;
    const name = `#u${n++}`;
    names[name] = attr;
    if (!isOp(change)) set.push(`${name} = ${value(change)}`);
    else if (change[OP] === 'remove') remove.push(name);
    else if (change[OP] === 'add') add.push(`${name} ${value(change.value)}`);
    else if (change[OP] === 'entries') {
      // No entry to change: the name would go unused, which DynamoDB refuses.
      if (!Object.keys(change.set).length && !change.remove.length) delete names[name];
      for (const [key, v] of Object.entries(change.set)) {
        const entry = `#u${n++}`;
        names[entry] = key;
        set.push(`${name}.${entry} = ${value(v)}`);
      }
      for (const key of change.remove) {
        const entry = `#u${n++}`;
        names[entry] = key;
        remove.push(`${name}.${entry}`);
      }
    } else if (change[OP] === 'ifNotExists') set.push(`${name} = if_not_exists(${name}, ${value(change.value)})`);
    else set.push(`${name} = if_not_exists(${name}, ${value(0)}) + ${value(change.value)}`);
  }
  const clauses = [
    set.length && `SET ${set.join(', ')}`,
    remove.length && `REMOVE ${remove.join(', ')}`,
    add.length && `ADD ${add.join(', ')}`,
  ].filter(Boolean);
  if (!clauses.length) throw new Error('update: no changes');
  for (const p of [...Object.keys(condition?.names ?? {}), ...Object.keys(condition?.values ?? {})]) {
    if (GENERATED.test(p)) throw new Error(`update: condition placeholder ${p} clashes with a generated one`);
  }
  Object.assign(names, condition?.names);
  Object.assign(values, condition?.values);
  return {
    UpdateExpression: clauses.join(' '),
    ...(condition && { ConditionExpression: condition.expression }),
    ...(Object.keys(names).length && { ExpressionAttributeNames: names }),
    ...(Object.keys(values).length && { ExpressionAttributeValues: values }),
  };
}

/**
 * What a PATCH body changes on an item: the fields it sets to a new value, and those it clears
 * with null. A field left out, or given its current value, changes nothing.
 */
export function patchDiff<F extends string>(
  current: Record<string, unknown>,
  patch: Partial<Record<F, unknown>>,
  fields: readonly F[],
): { set: Record<string, unknown>; remove: string[] } {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const f of fields) {
    const v = patch[f];
    // As JSON: a list (a requisition's hiring managers) is equal by its elements.
    if (v === undefined || JSON.stringify(v) === JSON.stringify(current[f] ?? null)) continue;
    if (v === null) remove.push(f);
    else set[f] = v;
  }
  return { set, remove };
}
