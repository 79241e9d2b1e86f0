/**
 * The mention inbox: one partition per member (`T#<tenant>#INBOX#<user>`), outside the person's
 * partition. An unread mention is `U#<id>`, a read one `R#<id>` (ids UUIDv7: each prefix read
 * backwards is newest first, unread before read in two exact Queries), and `COUNT` keeps the
 * unread count, changed in the same transaction as the items it counts. An item holds ids, the
 * note's visibility and its author, never the body; it leaves with its note, and with the person
 * when they are erased (eraseMentionsOfPerson).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { noteFromItem, type NoteMention, type NoteVisibility } from '../entities/note';
import type { Item } from '../item';
import { ddb, tableName } from './client';
import { keys, type Key, type PageKeyShape } from './table';
import { writeParts } from './tx';

export interface MentionRecord {
  id: string;
  user_id: string;
  note_id: string;
  person_id: string;
  candidate_id?: string;
  visibility: NoteVisibility;
  author_id: string;
  author_email?: string;
  via_token_id?: string;
  at: string;
  read_at?: string;
}

export const inboxPartition = (tenantId: string, userId: string) => `${keys.tenantPartition(tenantId)}#INBOX#${userId}`;
const UNREAD = 'U#';
const READ = 'R#';
export const mentionKey = (tenantId: string, userId: string, id: string, read: boolean): Key => ({
  PK: inboxPartition(tenantId, userId),
  SK: `${read ? READ : UNREAD}${id}`,
});
const countKey = (tenantId: string, userId: string): Key => ({ PK: inboxPartition(tenantId, userId), SK: 'COUNT' });

/** The page key of a member's inbox (lib/domain/cursor.ts). */
export const inboxPageKey = (tenantId: string, userId: string): PageKeyShape => ({
  attrs: ['PK', 'SK'],
  partitions: { PK: inboxPartition(tenantId, userId) },
  sortKey: /^[UR]#[0-9a-f-]{36}$/,
});

const fromItem = (i: Item): MentionRecord => ({
  id: String(i.id),
  user_id: String(i.user_id),
  note_id: String(i.note_id),
  person_id: String(i.person_id),
  ...(typeof i.candidate_id === 'string' && { candidate_id: i.candidate_id }),
  visibility: i.visibility as NoteVisibility,
  author_id: String(i.author_id),
  ...(typeof i.author_email === 'string' && { author_email: i.author_email }),
  ...(typeof i.via_token_id === 'string' && { via_token_id: i.via_token_id }),
  at: String(i.at),
  ...(typeof i.read_at === 'string' && { read_at: i.read_at }),
});

const itemOf = (tenantId: string, m: MentionRecord): Item => ({
  ...mentionKey(tenantId, m.user_id, m.id, m.read_at !== undefined),
  type: 'mention',
  tenant_id: tenantId,
  ...m,
});

const countBy = (tenantId: string, userId: string, n: number) => ({
  Update: {
    TableName: tableName(),
    Key: countKey(tenantId, userId),
    UpdateExpression: 'ADD unread :n',
    ExpressionAttributeValues: { ':n': n },
  },
});

/** The transaction actions of new mentions: each unread item, and its member's count up by one. */
export const mentionPuts = (tenantId: string, mentions: readonly MentionRecord[]) =>
  mentions.flatMap((m) => [
    { Put: { TableName: tableName(), Item: itemOf(tenantId, m), ConditionExpression: 'attribute_not_exists(PK)' } },
    countBy(tenantId, m.user_id, 1),
  ]);

/** A mention of the member, read or not, or undefined. */
export async function getMention(tenantId: string, userId: string, id: string): Promise<MentionRecord | undefined> {
  const [u, r] = await Promise.all(
    [false, true].map((read) =>
      ddb.send(new GetCommand({ TableName: tableName(), Key: mentionKey(tenantId, userId, id, read), ConsistentRead: true })),
    ),
  );
  const item = u!.Item ?? r!.Item;
  return item ? fromItem(item) : undefined;
}

/** The member's unread count (0 before their first mention). */
export async function unreadCount(tenantId: string, userId: string): Promise<number> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: countKey(tenantId, userId) }));
  return Math.max(0, Number(Item?.unread ?? 0));
}

/** Mark an unread mention read: the item moves from `U#` to `R#` and the count goes down, together; false when it was not unread. */
export async function markRead(tenantId: string, m: MentionRecord, at: string): Promise<boolean> {
  const outcome = await writeParts<'unread' | 'read' | 'count'>({
    unread: {
      Delete: { TableName: tableName(), Key: mentionKey(tenantId, m.user_id, m.id, false), ConditionExpression: 'attribute_exists(PK)' },
    },
    read: { Put: { TableName: tableName(), Item: itemOf(tenantId, { ...m, read_at: at }) } },
    count: countBy(tenantId, m.user_id, -1),
  });
  return 'written' in outcome;
}

/**
 * A page of the member's inbox, unread first, each part newest first: from `startKey` (its prefix
 * says which part it is in), up to `limit` items, and the key of the last one when the page is full.
 */
export async function queryInbox(
  tenantId: string,
  userId: string,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: MentionRecord[]; lastKey?: Item }> {
  const pk = inboxPartition(tenantId, userId);
  const inRead = typeof startKey?.SK === 'string' && startKey.SK.startsWith(READ);
  const items: Item[] = [];
  for (const prefix of inRead ? [READ] : [UNREAD, READ]) {
    let start = prefix === READ && !inRead ? undefined : startKey;
    do {
      const page = await ddb.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
          ScanIndexForward: false,
          Limit: limit - items.length,
          ...(start && { ExclusiveStartKey: start }),
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start && items.length < limit);
    if (items.length >= limit) break;
  }
  const last = items.length >= limit ? items.at(-1) : undefined;
  return { items: items.map(fromItem), lastKey: last && { PK: last.PK, SK: last.SK } };
}

/**
 * The actions that take a note's mentions out of the inboxes, as read now: each item deleted on
 * the condition that it is still in the state read (a mention read meanwhile refuses the
 * transaction, and the caller reads again), and each member's count down by their unread ones.
 */
export async function mentionRemovals(tenantId: string, mentions: readonly NoteMention[]): Promise<Record<string, unknown>[]> {
  const found = await Promise.all(mentions.map((m) => getMention(tenantId, m.user_id, m.mention_id)));
  return found.flatMap((m) =>
    m
      ? [
          {
            Delete: {
              TableName: tableName(),
              Key: mentionKey(tenantId, m.user_id, m.id, m.read_at !== undefined),
              ConditionExpression: 'attribute_exists(PK)',
            },
          },
          ...(m.read_at === undefined ? [countBy(tenantId, m.user_id, -1)] : []),
        ]
      : [],
  );
}

/** Transactions of this many actions at most: a note's mentions (20, each with its count) fit in one. */
const MAX_ACTIONS = 100;

/**
 * The erasure step for what the person's notes wrote outside their partition: every mention of
 * each note deleted from its member's inbox. Given the partition's items as read before they are
 * deleted (lib/store/person-erasure.ts), once the person item is gone, so no note joins meanwhile.
 * A mention read while this runs refuses its transaction, which is read and tried again. Resolves
 * with how many inbox items it deleted.
 */
export async function eraseMentionsOfNotes(tenantId: string, partition: readonly Item[]): Promise<number> {
  let deleted = 0;
  for (const n of partition.filter((i) => i.type === 'note').map(noteFromItem)) {
    for (let attempt = 1; ; attempt++) {
      const actions = await mentionRemovals(tenantId, n.mentions);
      if (!actions.length) break;
      const outcome = await writeParts({ mentions: actions.slice(0, MAX_ACTIONS) });
      if ('written' in outcome) {
        deleted += actions.filter((a) => 'Delete' in a).length;
        break;
      }
      if (attempt >= 5) throw new Error('mentions kept changing while the person was erased');
    }
  }
  return deleted;
}
