import { describe, expect, it } from 'vitest';
import { bool, CorruptItemError, listOf, oneOf, optNumberMap, optStr, str } from '../../lib/store/codec';

describe('store codecs narrow item attributes', () => {
  const item = { id: 'x', n: 3, role: 'admin', scopes: ['a', 'b'], nil: null, map: { applied: 2 }, on: false };

  it('returns attributes of the right type', () => {
    expect(str(item, 'id', 'e')).toBe('x');
    expect(bool(item, 'on', 'e')).toBe(false);
    expect(optStr(item, 'missing', 'e')).toBeUndefined();
    expect(optStr(item, 'nil', 'e')).toBeUndefined();
    expect(oneOf(item, 'role', ['admin', 'member'], 'e')).toBe('admin');
    expect(listOf(item, 'scopes', ['a', 'b', 'c'], 'e')).toEqual(['a', 'b']);
    expect(optNumberMap(item, 'map', 'e')).toEqual({ applied: 2 });
    expect(optNumberMap(item, 'missing', 'e')).toBeUndefined();
  });

  it('throws on a missing or mistyped attribute, naming it but not its value', () => {
    expect(() => str(item, 'missing', 'user')).toThrow(CorruptItemError);
    expect(() => str(item, 'n', 'user')).toThrow('corrupt user item: attribute n');
    expect(() => optStr(item, 'n', 'user')).toThrow(CorruptItemError);
    expect(() => bool(item, 'id', 'webhook')).toThrow(CorruptItemError);
    expect(() => bool(item, 'missing', 'webhook')).toThrow(CorruptItemError);
    expect(() => oneOf(item, 'role', ['member'], 'user')).toThrow(CorruptItemError);
    expect(() => oneOf(item, 'role', ['member'], 'user')).not.toThrow(/admin/);
    expect(() => listOf(item, 'scopes', ['a'], 'token')).toThrow(CorruptItemError);
    expect(() => listOf(item, 'id', ['x'], 'token')).toThrow(CorruptItemError);
    expect(() => optNumberMap(item, 'scopes', 'tenant')).toThrow(CorruptItemError);
    expect(() => optNumberMap({ m: { applied: '2' } }, 'm', 'tenant')).toThrow(CorruptItemError);
  });
});
