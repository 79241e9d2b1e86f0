/** API token format: shape, checksum, digest and hint. Pure functions, no I/O. */
import { describe, expect, it } from 'vitest';
import { generateToken, isWellFormedToken, TOKEN_PREFIX, tokenDigest, tokenHint } from '../../lib/auth/token';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TOKEN_SHAPE = /^tps_[0-9A-Za-z]{36}$/;

/** Replace the character at `i` with a different base62 character. */
const typoAt = (token: string, i: number, shift = 1) => {
  const next = BASE62[(BASE62.indexOf(token[i]!) + shift) % BASE62.length]!;
  return token.slice(0, i) + next + token.slice(i + 1);
};

const tokens = Array.from({ length: 200 }, generateToken);

describe('generateToken', () => {
  it('is tps_ followed by 36 base62 characters', () => {
    expect(TOKEN_PREFIX).toBe('tps_');
    for (const t of tokens) {
      expect(t).toMatch(TOKEN_SHAPE);
      expect(t).toHaveLength(40);
    }
  });

  it('is random: no duplicates and no shared random part', () => {
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(new Set(tokens.map((t) => t.slice(4, 34))).size).toBe(tokens.length);
  });

  it('uses the whole base62 alphabet across many tokens (no narrowed character set)', () => {
    const seen = new Set(tokens.flatMap((t) => [...t.slice(4, 34)]));
    // 200 * 30 draws: every one of the 62 characters shows up with overwhelming probability.
    expect([...seen].sort().join('')).toBe([...BASE62].sort().join(''));
  });
});

describe('isWellFormedToken', () => {
  it('accepts every generated token', () => {
    for (const t of tokens) expect(isWellFormedToken(t), t).toBe(true);
  });

  it('refuses any one-character typo, in the random part or in the checksum', () => {
    for (const t of tokens.slice(0, 20)) {
      for (let i = TOKEN_PREFIX.length; i < t.length; i++) {
        for (const shift of [1, 26, 61]) {
          const typo = typoAt(t, i, shift);
          expect(typo).not.toBe(t);
          expect(typo).toMatch(TOKEN_SHAPE);
          expect(isWellFormedToken(typo), `${t} -> ${typo}`).toBe(false);
        }
      }
    }
  });

  it('refuses two swapped neighbouring characters', () => {
    const t = tokens.find((x) => x[10] !== x[11])!;
    const swapped = t.slice(0, 10) + t[11] + t[10] + t.slice(12);
    expect(isWellFormedToken(swapped)).toBe(false);
  });

  it('refuses a case change of one letter', () => {
    const t = tokens.find((x) => /[a-z]/.test(x.slice(4)))!;
    const i = 4 + t.slice(4).search(/[a-z]/);
    const upper = t.slice(0, i) + t[i]!.toUpperCase() + t.slice(i + 1);
    expect(isWellFormedToken(upper)).toBe(false);
  });

  it.each([
    ['another prefix', (t: string) => `ghp_${t.slice(4)}`],
    ['upper-case prefix', (t: string) => `TPS_${t.slice(4)}`],
    ['no prefix', (t: string) => t.slice(4)],
    ['prefix without underscore', (t: string) => `tps${t.slice(4)}`],
    ['one character short', (t: string) => t.slice(0, -1)],
    ['one character long', (t: string) => `${t}0`],
    ['the token twice', (t: string) => t + t],
    ['a leading space', (t: string) => ` ${t}`],
    ['a trailing newline', (t: string) => `${t}\n`],
    ['a non-base62 character', (t: string) => `${t.slice(0, 10)}-${t.slice(11)}`],
    ['a non-ASCII look-alike', (t: string) => `${t.slice(0, 10)}\u0430${t.slice(11)}`],
  ])('refuses %s', (_label, mangle) => {
    for (const t of tokens.slice(0, 10)) expect(isWellFormedToken(mangle(t))).toBe(false);
  });

  it.each([[''], ['tps_'], ['Bearer'], [`tps_${'0'.repeat(36)}`], [`tps_${'A'.repeat(36)}`]])('refuses %j', (value) => {
    expect(isWellFormedToken(value)).toBe(false);
  });
});

describe('tokenDigest', () => {
  it('is 64 lower-case hex characters, deterministic, and not the token', () => {
    for (const t of tokens.slice(0, 20)) {
      const d = tokenDigest(t);
      expect(d).toMatch(/^[0-9a-f]{64}$/);
      expect(tokenDigest(t)).toBe(d);
      expect(d).not.toBe(t);
      expect(d).not.toContain(t.slice(4));
    }
  });

  it('differs between tokens', () => {
    expect(new Set(tokens.map(tokenDigest)).size).toBe(tokens.length);
  });

  it('is SHA-256 (known answer)', () => {
    expect(tokenDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('tokenHint', () => {
  it('shows the prefix and only the last four characters', () => {
    for (const t of tokens.slice(0, 20)) {
      const hint = tokenHint(t);
      expect(hint.startsWith(TOKEN_PREFIX)).toBe(true);
      expect(hint.endsWith(t.slice(-4))).toBe(true);
      // Nothing else of the secret: strip the prefix and last four and no base62 is left.
      const middle = hint.slice(TOKEN_PREFIX.length, -4);
      expect(middle).not.toMatch(/[0-9A-Za-z]/);
      expect(hint.length).toBeLessThanOrEqual(TOKEN_PREFIX.length + 4 + 1);
      expect(hint).not.toContain(t.slice(4, -4));
      expect(isWellFormedToken(hint)).toBe(false);
    }
  });
});
