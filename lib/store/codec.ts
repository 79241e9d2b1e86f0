/**
 * Narrowing DynamoDB items into domain objects. Each entity has one codec (`tokenFromItem`,
 * `userFromItem`, …) next to its store module, built from these checks; it is the only place
 * the store turns an item into a domain object. The checks are plain `typeof`/membership tests
 * (no schema library on the hot path); an attribute of the wrong type is a corrupt item, a bug
 * of ours, so it throws rather than handing a wrong shape onwards.
 */

// Defined beside the entity declarations, which derive codecs from them without reaching into the store.
export { CorruptItemError, type Item } from '../item';
import type { Item } from '../item';
import { CorruptItemError } from '../item';
import { roleFrom, type Role } from '../model';

/** A required string attribute. */
export function str(item: Item, name: string, entity: string): string {
  const v = item[name];
  if (typeof v !== 'string') throw new CorruptItemError(entity, name);
  return v;
}

/** An optional string attribute: absent (or null) gives undefined. */
export function optStr(item: Item, name: string, entity: string): string | undefined {
  const v = item[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new CorruptItemError(entity, name);
  return v;
}

/** A boolean attribute: required, unless `absent` gives the value an item without it has. */
export function bool(item: Item, name: string, entity: string, absent?: boolean): boolean {
  const v = item[name];
  if ((v === undefined || v === null) && absent !== undefined) return absent;
  if (typeof v !== 'boolean') throw new CorruptItemError(entity, name);
  return v;
}

/**
 * A finite number attribute: required, unless `absent` gives the value an item without it has
 * (counters that start at zero are often written only once they move).
 */
export function num(item: Item, name: string, entity: string, absent?: number): number {
  const v = item[name];
  if ((v === undefined || v === null) && absent !== undefined) return absent;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new CorruptItemError(entity, name);
  return v;
}

/** A required attribute that must be one of `values`. */
export function oneOf<T extends string>(item: Item, name: string, values: readonly T[], entity: string): T {
  const v = item[name];
  if (!(values as readonly unknown[]).includes(v)) throw new CorruptItemError(entity, name);
  return v as T;
}

/** A user's or session's role: the `member` stored before roles were split reads as `recruiter`. */
export function roleOf(item: Item, entity: string): Role {
  const role = roleFrom(item.role);
  if (!role) throw new CorruptItemError(entity, 'role');
  return role;
}

/** A required list attribute whose every element is one of `values`. */
export function listOf<T extends string>(item: Item, name: string, values: readonly T[], entity: string): T[] {
  const v = item[name];
  if (!Array.isArray(v) || !v.every((e) => (values as readonly unknown[]).includes(e))) throw new CorruptItemError(entity, name);
  return v as T[];
}

/** An optional map attribute from `keys` to numbers (such as stuck thresholds per stage). */
export function optNumberMap<K extends string>(item: Item, name: string, entity: string): Partial<Record<K, number>> | undefined {
  const v = item[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((n) => typeof n === 'number')) {
    throw new CorruptItemError(entity, name);
  }
  return v as Partial<Record<K, number>>;
}
