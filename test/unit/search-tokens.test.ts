/** The search index's pure token rules (lib/store/search.ts): what a candidate is found by. */
import { describe, expect, it } from 'vitest';
import { STREAM_FILTER_PATTERNS } from '../../lib/webhooks/events';
import { STUCK_FILTER_PATTERNS } from '../../lib/store/stream-filters';
import { eventsFromRecord, streamRecord, CAND, TENANT, T1 } from '../helpers/lambda-records';
import {
  candidateTokens,
  leadWord,
  searchItems,
  listedAt,
  MAX_TOKEN_CHARS,
  MAX_TOKENS,
  normalize,
  queryWords,
  searchKey,
  searchPartition,
  toksAttr,
} from '../../lib/store/search';

describe('normalize', () => {
  it('drops case and accents, and folds compatibility forms', () => {
    expect(normalize('José ÅSTRÖM')).toBe('jose astrom');
    expect(normalize('Ｆｕｌｌ')).toBe('full');
    expect(normalize('ﬁne')).toBe('fine');
  });
});

describe('candidateTokens', () => {
  it('gives each name word, the whole email, then the parts of punctuated words', () => {
    expect(candidateTokens({ name: 'Ada Lovelace', email: 'Ada@Example.com' })).toEqual(['ada', 'lovelace', 'ada@example.com']);
    expect(candidateTokens({ name: 'Jean-Luc  Picard' })).toEqual(['jean-luc', 'picard', 'jean', 'luc']);
    expect(candidateTokens({ name: "Seán O'Brien" })).toEqual(['sean', "o'brien", 'o', 'brien']);
  });

  it('keeps each token once', () => {
    expect(candidateTokens({ name: 'Ada ada ADA-ada' })).toEqual(['ada', 'ada-ada']);
  });

  it('caps the tokens per candidate, and their length', () => {
    const many = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    expect(candidateTokens({ name: many, email: 'x@example.com' })).toHaveLength(MAX_TOKENS);
    const [long] = candidateTokens({ name: 'a'.repeat(300) });
    expect(long).toHaveLength(MAX_TOKEN_CHARS);
  });

  it('never holds white space, so `toks` can mark token starts with a space', () => {
    const tokens = candidateTokens({ name: 'A\u00a0B\tC\u2003D', email: ' e@x.io ' });
    for (const t of tokens) expect(t).not.toMatch(/\s/u);
    expect(toksAttr(tokens)).toBe(' a b c d e@x.io');
  });
});

describe('queries', () => {
  it('split into normalized, distinct words', () => {
    expect(queryWords('  Ada   LOVE ada ')).toEqual(['ada', 'love']);
    expect(queryWords('José')).toEqual(['jose']);
  });

  it('run on the longest word', () => {
    expect(leadWord(['ada', 'love'])).toBe('love');
    expect(leadWord(['ab', 'cd'])).toBe('ab');
  });

  it('list a candidate at one token only: the smallest that the word prefixes', () => {
    const toks = ['anderson', 'ana', 'ana@example.com'];
    expect(listedAt(toks, 'an')).toBe('ana');
    expect(listedAt(toks, 'and')).toBe('anderson');
    expect(listedAt(toks, 'ana@')).toBe('ana@example.com');
    expect(listedAt(toks, 'zed')).toBeUndefined();
  });

  it('agree with the sort key order when one token prefixes another', () => {
    // `ana#…` sorts before `ana-b#…` and `anab#…`: `#` is below every letter, digit and most punctuation.
    expect(listedAt(['anab', 'ana-b', 'ana'], 'ana')).toBe('ana');
  });
});

describe('keys', () => {
  it('put a token in its tenant partition named by its first character', () => {
    expect(searchPartition('t1', 'ada')).toBe('T#t1#SEARCH#a');
    expect(searchPartition('t1', 'élan')).toBe('T#t1#SEARCH#é');
    expect(searchKey('t1', 'ada', 'c1')).toEqual({ PK: 'T#t1#SEARCH#a', SK: 'ada#c1' });
  });
});

describe('search items on the stream', () => {
  const items = searchItems(TENANT, {
    id: CAND,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    stage: 'offer_sent',
    created_at: T1,
    updated_at: T1,
  });

  it('match no stream filter: no webhook fan-out, no stuck re-index', () => {
    expect(items.map((i) => i.type)).toEqual(['search', 'search', 'search']);
    for (const pattern of [...STREAM_FILTER_PATTERNS, ...STUCK_FILTER_PATTERNS]) {
      expect(pattern.dynamodb.NewImage.type.S).not.toContain('search');
    }
  });

  it('make no event even if a record reached the fan-out', () => {
    for (const item of items) {
      expect(eventsFromRecord(streamRecord('INSERT', item))).toEqual([]);
      expect(eventsFromRecord(streamRecord('MODIFY', { ...item, stage: 'offer_accepted' }, item))).toEqual([]);
    }
  });
});
