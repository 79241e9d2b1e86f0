/**
 * A member's mentions (the console's inbox): their own only, and each only while they may see the
 * note and its person (mayAnswerMention): a mention is kept whatever the member's sight, and
 * answered when it allows.
 */
import { NotFoundError } from '../errors';
import { getMention, inboxPageKey, markRead, queryInbox, unreadCount, type MentionRecord } from '../store/mentions';
import { decodeCursor, encodeCursor } from './cursor';
import { mayAnswerMention, readerOf } from './note-rules';
import type { SessionPrincipal } from './principal';
import { nowIso } from '../ids';

export interface MentionAnswer {
  id: string;
  note_id: string;
  person_id: string;
  candidate_id: string | null;
  author: { id: string; email: string | null };
  at: string;
  read_at: string | null;
}

const answer = (m: MentionRecord): MentionAnswer => ({
  id: m.id,
  note_id: m.note_id,
  person_id: m.person_id,
  candidate_id: m.candidate_id ?? null,
  author: { id: m.author_id, email: m.author_email ?? null },
  at: m.at,
  read_at: m.read_at ?? null,
});

const sightOf = (m: MentionRecord) => ({
  person_id: m.person_id,
  visibility: m.visibility,
  author_id: m.author_id,
  ...(m.via_token_id && { via_token_id: m.via_token_id }),
});

/** The member's mentions, unread first, each part newest first; with the unread count (the console header's). */
export async function listMentions(p: SessionPrincipal, q: { limit: number; cursor?: string }) {
  const reader = readerOf(p);
  const scope = { tenantId: p.tenantId, filters: JSON.stringify(['mentions', p.userId]), key: inboxPageKey(p.tenantId, p.userId) };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  const [page, unread] = await Promise.all([queryInbox(p.tenantId, p.userId, q.limit, startKey), unreadCount(p.tenantId, p.userId)]);
  const items = page.items.filter((m) => mayAnswerMention(reader, m, sightOf(m))).map(answer);
  return { items, unread, next_cursor: page.lastKey ? encodeCursor(scope, page.lastKey) : null };
}

/** Mark one of the member's mentions read; reading a read one again changes nothing. */
export async function readMention(p: SessionPrincipal, id: string): Promise<MentionAnswer> {
  const reader = readerOf(p);
  for (let attempt = 1; attempt <= 3; attempt++) {
    const m = await getMention(p.tenantId, p.userId, id);
    if (!m || !mayAnswerMention(reader, m, sightOf(m))) break;
    if (m.read_at !== undefined) return answer(m);
    const at = nowIso();
    if (await markRead(p.tenantId, m, at)) return answer({ ...m, read_at: at });
  }
  throw new NotFoundError('mention');
}
