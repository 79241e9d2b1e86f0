/** Note visibility, authorship, edit and delete rights, and the mention rule: pure, no table. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/errors';
import {
  authorOf,
  decideMentions,
  mayAnswerMention,
  mayDeleteNote,
  mayEditNote,
  maySeeNote,
  readerOf,
  type NoteSight,
} from '../../lib/domain/note-rules';
import type { SessionPrincipal, TokenPrincipal } from '../../lib/domain/principal';

const tenant = { tenantId: 't1', tenantSlug: 'acme' };
const session = (userId: string, role: 'admin' | 'recruiter' = 'recruiter'): SessionPrincipal => ({
  kind: 'session',
  ...tenant,
  userId,
  email: `${userId}@acme.example`,
  role,
});
const token = (tokenId: string, creator?: string): TokenPrincipal => ({
  kind: 'token',
  ...tenant,
  tokenId,
  scopes: ['*'],
  role: 'recruiter',
  ...(creator && { creator: { id: creator, email: `${creator}@acme.example` } }),
});
const note = (visibility: NoteSight['visibility'], author = 'alice', via?: string): NoteSight => ({
  person_id: 'p1',
  visibility,
  author_id: author,
  ...(via && { via_token_id: via }),
});

describe('who sees a note', () => {
  const readers = {
    author: readerOf(session('alice')),
    member: readerOf(session('bob')),
    admin: readerOf(session('carol', 'admin')),
    token: readerOf(token('tok-other', 'alice')),
    ownToken: readerOf(token('tok-1', 'alice')),
  };
  it.each([
    ['team', { author: true, member: true, admin: true, token: true, ownToken: true }],
    ['admins', { author: true, member: false, admin: true, token: false, ownToken: true }],
    ['private', { author: true, member: false, admin: false, token: false, ownToken: true }],
  ] as const)('a %s note', (visibility, expected) => {
    const n = note(visibility, 'alice', 'tok-1');
    const seen = Object.fromEntries(Object.entries(readers).map(([k, r]) => [k, maySeeNote(r, n)]));
    expect(seen).toEqual(expected);
  });

  it("a token reads as itself, never as its creator: a private note written in the console is not its creator's token's", () => {
    expect(maySeeNote(readerOf(token('tok-1', 'alice')), note('private', 'alice'))).toBe(false);
    expect(maySeeNote(readerOf(session('alice')), note('private', 'alice', 'tok-1'))).toBe(true);
  });
});

describe('edit and delete', () => {
  it('only the author edits; the author or an admin who may see it deletes', () => {
    const n = note('team');
    expect(mayEditNote(readerOf(session('alice')), n)).toBe(true);
    expect(mayEditNote(readerOf(session('carol', 'admin')), n)).toBe(false);
    expect(mayDeleteNote(readerOf(session('carol', 'admin')), n)).toBe(true);
    expect(mayDeleteNote(readerOf(session('bob')), n)).toBe(false);
    // An admin may not delete what they may not see: another's private note.
    expect(mayDeleteNote(readerOf(session('carol', 'admin')), note('private'))).toBe(false);
  });
});

describe('the author', () => {
  it("a session's member; a token's creator, through the token; a token without a creator as itself, never privately", () => {
    expect(authorOf(session('alice'), 'private')).toEqual({ type: 'user', id: 'alice', email: 'alice@acme.example' });
    expect(authorOf(token('tok-1', 'alice'), 'private')).toEqual({
      type: 'user',
      id: 'alice',
      email: 'alice@acme.example',
      viaTokenId: 'tok-1',
    });
    expect(authorOf(token('tok-cli'), 'team')).toEqual({ type: 'token', id: 'tok-cli', viaTokenId: 'tok-cli' });
    expect(() => authorOf(token('tok-cli'), 'private')).toThrow(ValidationError);
  });
});

describe('mentions', () => {
  const members = [
    { id: 'alice', role: 'recruiter' },
    { id: 'carol', role: 'admin' },
    { id: 'gone', role: 'recruiter', deactivated_at: '2026-01-01T00:00:00.000Z' },
  ];
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof ValidationError ? e.field : 'other';
    }
    return undefined;
  };

  it('each active member once, in order', () => {
    expect(decideMentions(['carol', 'alice', 'carol'], members, 'team')).toEqual(['carol', 'alice']);
  });
  it.each([
    ['someone not a member', ['zed'], 'team'],
    ['a deactivated member', ['gone'], 'team'],
    ['anyone on a private note', ['alice'], 'private'],
    ['a non-admin on an admins note', ['alice'], 'admins'],
    ['more than 20', Array.from({ length: 21 }, (_, i) => `m${i}`), 'team'],
  ] as const)('refuses %s (400 field mentions)', (_what, ids, visibility) => {
    expect(refusal(() => decideMentions(ids, members, visibility))).toBe('mentions');
  });
  it('an admin on an admins note is fine', () => {
    expect(decideMentions(['carol'], members, 'admins')).toEqual(['carol']);
  });
  it('a mention is answered to its member alone, and only while they may see the note', () => {
    expect(mayAnswerMention(readerOf(session('bob')), { user_id: 'bob' }, note('team'))).toBe(true);
    expect(mayAnswerMention(readerOf(session('alice')), { user_id: 'bob' }, note('team'))).toBe(false);
    // Demoted after the mention: the admins note is no longer theirs to see.
    expect(mayAnswerMention(readerOf(session('bob')), { user_id: 'bob' }, note('admins'))).toBe(false);
  });
});
