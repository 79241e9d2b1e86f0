/**
 * Notes in the person's partition (`T#<tenant>#PERSON#<person>`): the note `NOTE#<id>` (ids are
 * UUIDv7, so the partition read backwards is newest first) and the bodies its edits replaced
 * `NOTEV#<id>#<version>`. Erasing the person deletes the partition, bodies and history with it;
 * the mention inbox items it wrote elsewhere leave through lib/store/mentions.ts.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { NOTE_HISTORY_MAX, noteFromItem, noteVersionFromItem, type NoteRecord, type NoteVersionRecord } from '../entities/note';
import type { Item } from '../item';
import { auditPuts, type AuditEntry } from './audit';
import { ddb, queryAll, tableName } from './client';
import { keys, type Key, type PageKeyShape } from './table';
import { writeParts, type TxPart } from './tx';

export const NOTE_PREFIX = 'NOTE#';
const VERSION_PREFIX = 'NOTEV#';
const pad = (v: number) => String(v).padStart(6, '0');

export const noteKey = (tenantId: string, personId: string, noteId: string): Key => ({
  PK: keys.personPartition(tenantId, personId),
  SK: `${NOTE_PREFIX}${noteId}`,
});
export const noteVersionKey = (tenantId: string, personId: string, noteId: string, version: number): Key => ({
  PK: keys.personPartition(tenantId, personId),
  SK: `${VERSION_PREFIX}${noteId}#${pad(version)}`,
});

/** The page key of a person's note list (lib/domain/cursor.ts checks a cursor against it). */
export const notePageKey = (tenantId: string, personId: string): PageKeyShape => ({
  attrs: ['PK', 'SK'],
  partitions: { PK: keys.personPartition(tenantId, personId) },
  sortKey: /^NOTE#[0-9a-f-]{36}$/,
});

export function noteItem(tenantId: string, n: NoteRecord): Item {
  return {
    ...noteKey(tenantId, n.person_id, n.id),
    type: 'note',
    tenant_id: tenantId,
    id: n.id,
    person_id: n.person_id,
    ...(n.candidate_id && { candidate_id: n.candidate_id }),
    body: n.body,
    visibility: n.visibility,
    author_type: n.author_type,
    author_id: n.author_id,
    ...(n.author_email && { author_email: n.author_email }),
    ...(n.via_token_id && { via_token_id: n.via_token_id }),
    mentions: n.mentions,
    created_at: n.created_at,
    updated_at: n.updated_at,
    version: n.version,
  };
}

export async function getNote(tenantId: string, personId: string, noteId: string): Promise<NoteRecord | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: noteKey(tenantId, personId, noteId), ConsistentRead: true }),
  );
  return Item ? noteFromItem(Item) : undefined;
}

/** The earlier bodies of a note, oldest first. */
export async function queryNoteVersions(tenantId: string, personId: string, noteId: string): Promise<NoteVersionRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.personPartition(tenantId, personId), ':prefix': `${VERSION_PREFIX}${noteId}#` },
    ConsistentRead: true,
  });
  return items.map(noteVersionFromItem);
}

/**
 * What the reader may see of a person's notes, as a DynamoDB filter: `team` notes, the reader's
 * own, and `admins` notes for an admin. The domain checks each note again (maySeeNote); the filter
 * keeps notes the reader may not see from ever leaving the table for this request.
 */
export interface NoteFilter {
  userId?: string;
  tokenId?: string;
  admin: boolean;
}
export function sightFilter(r: NoteFilter) {
  const values: Record<string, unknown> = { ':team': 'team' };
  const terms = ['attribute_not_exists(visibility)', 'visibility = :team'];
  if (r.userId !== undefined) {
    terms.push('author_id = :me');
    values[':me'] = r.userId;
  }
  if (r.tokenId !== undefined) {
    terms.push('via_token_id = :tok');
    values[':tok'] = r.tokenId;
  }
  if (r.admin) {
    terms.push('visibility = :admins');
    values[':admins'] = 'admins';
  }
  return { FilterExpression: terms.join(' OR '), values };
}

/**
 * One page of a partition's items under `prefix`, newest first: ONE Query of `limit` items, those
 * the filter leaves out dropped from it (so a page may be short), and where the next one starts.
 */
export async function queryPage(
  pk: string,
  prefix: string,
  filter: ReturnType<typeof sightFilter>,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: Item[]; lastKey?: Record<string, unknown> }> {
  const page = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      FilterExpression: filter.FilterExpression,
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ...filter.values },
      ScanIndexForward: false,
      Limit: limit,
      ...(startKey && { ExclusiveStartKey: startKey }),
    }),
  );
  return { items: page.Items ?? [], lastKey: page.LastEvaluatedKey };
}

export type NoteParts = 'person' | 'candidate' | 'note' | 'mentions' | 'audit';

/** The checks a new note's transaction makes: the person exists, and the candidate is theirs. */
const personCheck = (tenantId: string, personId: string) => ({
  ConditionCheck: { TableName: tableName(), Key: keys.person(tenantId, personId), ConditionExpression: 'attribute_exists(PK)' },
});
const candidateCheck = (tenantId: string, personId: string, candidateId: string) => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.candidate(tenantId, candidateId),
    ConditionExpression: 'person_id = :pid',
    ExpressionAttributeValues: { ':pid': personId },
  },
});

/** A new note with its mentions' inbox items and its audit intent, in one transaction. */
export const insertNote = (tenantId: string, n: NoteRecord, mentions: TxPart, audit: AuditEntry) =>
  writeParts<NoteParts>({
    person: personCheck(tenantId, n.person_id),
    candidate: n.candidate_id ? candidateCheck(tenantId, n.person_id, n.candidate_id) : undefined,
    note: { Put: { TableName: tableName(), Item: noteItem(tenantId, n), ConditionExpression: 'attribute_not_exists(PK)' } },
    mentions,
    audit: auditPuts(tenantId, audit),
  });

/**
 * An edit: the body replaced, the one it replaces kept as version `before.version + 1`, and, past
 * NOTE_HISTORY_MAX kept bodies, the oldest deleted. Conditional on the version read: a concurrent
 * edit refuses it (part `note`).
 */
export function editNote(tenantId: string, before: NoteRecord, body: string, at: string, audit: AuditEntry) {
  const version = before.version + 1;
  const drop = version - NOTE_HISTORY_MAX;
  return writeParts<'note' | 'history' | 'audit'>({
    note: {
      Update: {
        TableName: tableName(),
        Key: noteKey(tenantId, before.person_id, before.id),
        UpdateExpression: 'SET body = :body, edited_at = :at, updated_at = :at, version = :next',
        ConditionExpression: 'attribute_exists(PK) AND (version = :v OR (attribute_not_exists(version) AND :v = :zero))',
        ExpressionAttributeValues: { ':body': body, ':at': at, ':next': version, ':v': before.version, ':zero': 0 },
      },
    },
    history: [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...noteVersionKey(tenantId, before.person_id, before.id, version),
            type: 'note_version',
            tenant_id: tenantId,
            note_id: before.id,
            version,
            body: before.body,
            written_at: before.edited_at ?? before.created_at,
            replaced_at: at,
          },
        },
      },
      ...(drop > 0 ? [{ Delete: { TableName: tableName(), Key: noteVersionKey(tenantId, before.person_id, before.id, drop) } }] : []),
    ],
    audit: auditPuts(tenantId, audit),
  });
}

/** A note deleted with every earlier body it keeps and its mentions' inbox items, in one transaction. */
export function removeNote(tenantId: string, n: NoteRecord, versions: readonly NoteVersionRecord[], mentions: TxPart, audit: AuditEntry) {
  return writeParts<'note' | 'history' | 'mentions' | 'audit'>({
    note: {
      Delete: {
        TableName: tableName(),
        Key: noteKey(tenantId, n.person_id, n.id),
        ConditionExpression: 'version = :v OR (attribute_not_exists(version) AND :v = :zero)',
        ExpressionAttributeValues: { ':v': n.version, ':zero': 0 },
      },
    },
    history: versions.map((v) => ({ Delete: { TableName: tableName(), Key: noteVersionKey(tenantId, n.person_id, n.id, v.version) } })),
    mentions,
    audit: auditPuts(tenantId, audit),
  });
}

/** Whether the person exists in the workspace (a GetItem of the person item, keys only). */
export async function personExists(tenantId: string, personId: string): Promise<boolean> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.person(tenantId, personId), ProjectionExpression: 'PK' }),
  );
  return Item !== undefined;
}
