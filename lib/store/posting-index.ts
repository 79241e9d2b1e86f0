/**
 * The posting item's key and its entry in the public board's index (GSI1 partition
 * `T#<t>#BOARD`), and the parts the requisition's own writes add to keep that index and the
 * posting's copies right (lib/store/requisition-parts.ts). Apart from lib/store/postings.ts so
 * that the requisition functions do not bundle the posting's declaration.
 */
import { tableName } from './client';
import type { Item } from './codec';
import { TABLE_DEF, keys } from './table';

export const BOARD_INDEX = TABLE_DEF.indexes.byStageOrStatus;

export const postingKey = (tenantId: string, reqId: string) => ({ PK: keys.tenantPartition(tenantId), SK: `REQ#${reqId}#POSTING` });
export const boardPartition = (tenantId: string) => `${keys.tenantPartition(tenantId)}#BOARD`;
/** The posting's entry in the board index (GSI1): present exactly while it is listed. */
export const boardIndexKey = (tenantId: string, reqId: string) => ({
  [BOARD_INDEX.partitionKey]: boardPartition(tenantId),
  [BOARD_INDEX.sortKey]: reqId,
});
export const BOARD_KEY_ATTRS = [BOARD_INDEX.partitionKey, BOARD_INDEX.sortKey] as const;

/** The requisition fields a listing shows, as the posting item copies them. */
export const REQ_COPIES = { title: 'req_title', department: 'req_department', location: 'req_location', job_type: 'req_job_type' } as const;

/**
 * The status change's part: a published posting joins the board when its requisition opens and
 * leaves it when it stops being open. None when the posting is not published or nothing changes.
 */
export function boardStatusPart(tenantId: string, reqItem: Item, fromOpen: boolean, toOpen: boolean) {
  if (reqItem.posting_published !== true || fromOpen === toOpen) return undefined;
  const id = String(reqItem.id);
  const [pk, sk] = BOARD_KEY_ATTRS;
  return {
    Update: {
      TableName: tableName(),
      Key: postingKey(tenantId, id),
      UpdateExpression: toOpen ? 'SET #pk = :pk, #sk = :sk' : 'REMOVE #pk, #sk',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#pk': pk, '#sk': sk },
      ...(toOpen && { ExpressionAttributeValues: { ':pk': boardPartition(tenantId), ':sk': id } }),
    },
  };
}

/**
 * The field change's part: the posting's copies of the requisition's title, department, location
 * and job type follow a change of them. None when the requisition has no posting or none changed.
 */
export function postingCopiesPart(tenantId: string, reqItem: Item, set: Item, remove: readonly string[]) {
  if (reqItem.posting_at === undefined) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const rms: string[] = [];
  for (const [f, copy] of Object.entries(REQ_COPIES)) {
    if (set[f] !== undefined) {
      names[`#${f}`] = copy;
      values[`:${f}`] = set[f];
      sets.push(`#${f} = :${f}`);
    } else if (remove.includes(f)) {
      names[`#${f}`] = copy;
      rms.push(`#${f}`);
    }
  }
  if (!sets.length && !rms.length) return undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: postingKey(tenantId, String(reqItem.id)),
      UpdateExpression: [sets.length && `SET ${sets.join(', ')}`, rms.length && `REMOVE ${rms.join(', ')}`].filter(Boolean).join(' '),
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: names,
      ...(sets.length && { ExpressionAttributeValues: values }),
    },
  };
}
