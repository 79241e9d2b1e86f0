/**
 * Postings: one item per requisition, in the workspace partition right after the requisition and
 * its history (`REQ#<id>#POSTING`), so the requisition's range Query reads it too.
 *
 * The public board's index: a posting that is published while its requisition is open carries
 * the board keys of GSI1 (`T#<t>#BOARD`, sorted by requisition id, newest first), and only then.
 * Every write that changes either half keeps it: the posting write (here), the requisition's
 * status change and its field changes (lib/store/requisition-parts.ts, which read the
 * requisition's `posting_published` mirror, written with the posting in one transaction). The
 * item also copies the requisition fields a listing shows (title, department, location, job
 * type), so one Query answers a board page. The requisition's version guards both: a posting
 * write and a status change cannot interleave.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { postingAttributes, postingFromItem, type Posting } from '../entities/posting';
import type { PostingPlan, PostingReqRead } from '../domain/posting-rules';
import { auditPuts } from './audit';
import { ddb, tableName } from './client';
import type { Item } from './codec';
import { actorAttrs, requisitionItem, reqVersion } from './requisitions';
import { BOARD_INDEX, boardIndexKey, boardPartition, postingKey, REQ_COPIES } from './posting-index';
import { keys } from './table';
import { writeParts, type TxOutcome } from './tx';

/** The requisition as the posting write reads it. */
export function postingReqRead(raw: Item | undefined): PostingReqRead | undefined {
  if (!raw) return undefined;
  const item = requisitionItem(raw);
  const opt = (n: string) => (typeof item[n] === 'string' ? (item[n] as string) : null);
  return {
    id: item.id,
    title: item.title,
    status: item.status,
    version: reqVersion(item),
    department: opt('department'),
    location: opt('location'),
    job_type: opt('job_type'),
  };
}

/** A requisition and its posting: two strongly consistent GetItems, side by side. */
export async function getRequisitionAndPosting(
  tenantId: string,
  reqId: string,
): Promise<{ req: PostingReqRead | undefined; reqItem: Item | undefined; posting: Posting | undefined }> {
  const [req, post] = await Promise.all([
    ddb.send(new GetCommand({ TableName: tableName(), Key: keys.requisition(tenantId, reqId), ConsistentRead: true })),
    ddb.send(new GetCommand({ TableName: tableName(), Key: postingKey(tenantId, reqId), ConsistentRead: true })),
  ]);
  return { req: postingReqRead(req.Item), reqItem: req.Item, posting: post.Item && postingFromItem(post.Item) };
}

export type PostingParts = 'requisition' | 'posting' | 'audit';

/**
 * Write a posting: the requisition at the version read (its version, `updated_at`, actor and the
 * posting mirror change: a `requisition.updated` naming `posting`), the posting item with its
 * copies and, while listed, its board keys, and the audit record.
 */
export async function writePosting(tenantId: string, plan: PostingPlan): Promise<TxOutcome<PostingParts>> {
  const { req, posting, actor, at } = plan;
  const removes = [
    ...(actor.type === 'system' || actor.name === undefined ? ['actor_name'] : []),
    ...(actor.type === 'system' || actor.email === undefined ? ['actor_email'] : []),
    ...(actor.type === 'system' ? ['actor_id'] : []),
  ];
  const set: Item = { posting_published: posting.published, posting_at: at, version: plan.version, updated_at: at, ...actorAttrs(actor) };
  const names: Record<string, string> = { '#v': 'version' };
  const values: Record<string, unknown> = {};
  const sets = Object.entries(set).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  const rm = removes.map((k, i) => {
    names[`#r${i}`] = k;
    return `#r${i}`;
  });
  const versionCond = req.version === 0 ? 'attribute_not_exists(#v)' : '#v = :v';
  if (req.version !== 0) values[':v'] = req.version;
  return writeParts<PostingParts>({
    requisition: {
      Update: {
        TableName: tableName(),
        Key: keys.requisition(tenantId, req.id),
        UpdateExpression: `SET ${sets.join(', ')}${rm.length ? ` REMOVE ${rm.join(', ')}` : ''}`,
        ConditionExpression: `attribute_exists(PK) AND ${versionCond}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    posting: { Put: { TableName: tableName(), Item: postingItem(tenantId, req, posting, plan.listed) } },
    audit: plan.audit && auditPuts(tenantId, plan.audit),
  });
}

function postingItem(tenantId: string, req: PostingReqRead, posting: Posting, listed: boolean): Item {
  return {
    ...postingKey(tenantId, req.id),
    ...(listed && boardIndexKey(tenantId, req.id)),
    type: 'posting',
    tenant_id: tenantId,
    ...postingAttributes(posting),
    [REQ_COPIES.title]: req.title,
    ...(req.department !== null && { [REQ_COPIES.department]: req.department }),
    ...(req.location !== null && { [REQ_COPIES.location]: req.location }),
    ...(req.job_type !== null && { [REQ_COPIES.job_type]: req.job_type }),
  };
}

/** A posting as the public sees it: the posting and the requisition fields it shows. */
export interface PublicPosting {
  posting: Posting;
  title: string;
  department: string | null;
  /** The posting's location, else the requisition's. */
  location: string | null;
  /** The posting's employment type, else the requisition's job type. */
  employment_type: string | null;
}

const optAttr = (item: Item, n: string) => (typeof item[n] === 'string' ? (item[n] as string) : null);

/** A listed posting item as the public sees it. */
export function publicPostingOf(item: Item): PublicPosting {
  const posting = postingFromItem(item);
  return {
    posting,
    title: String(item[REQ_COPIES.title] ?? ''),
    department: optAttr(item, REQ_COPIES.department),
    location: posting.location ?? optAttr(item, REQ_COPIES.location),
    employment_type: posting.employment_type ?? optAttr(item, REQ_COPIES.job_type),
  };
}

/**
 * The public posting of (workspace, requisition): undefined unless it is published AND the
 * requisition is open, which the board keys on the item say (they are written in the same
 * transactions as both halves). One strongly consistent GetItem, so a takedown holds at once.
 */
export async function getPublicPosting(tenantId: string, reqId: string): Promise<PublicPosting | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: postingKey(tenantId, reqId), ConsistentRead: true }));
  if (!Item || Item[BOARD_INDEX.partitionKey] !== boardPartition(tenantId)) return undefined;
  return publicPostingOf(Item);
}

/** The workspace a careers slug names: one GetItem on the slug's lookup item; undefined for none. */
export async function tenantIdOfSlug(slug: string): Promise<string | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.slug(slug), ConsistentRead: true }));
  return typeof Item?.tenant_id === 'string' ? Item.tenant_id : undefined;
}

/**
 * One page of a workspace's listed postings, newest requisition first (the board index; read
 * eventually consistently, so a change shows there a moment later than on the job's own read).
 * `after` is the requisition id the previous page ended on.
 */
export async function queryBoard(tenantId: string, limit: number, after?: string): Promise<{ items: Item[]; more: boolean }> {
  const { Items = [], LastEvaluatedKey } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: BOARD_INDEX.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': BOARD_INDEX.partitionKey },
      ExpressionAttributeValues: { ':pk': boardPartition(tenantId) },
      ScanIndexForward: false,
      Limit: limit,
      ...(after && { ExclusiveStartKey: { ...postingKey(tenantId, after), ...boardIndexKey(tenantId, after) } }),
    }),
  );
  return { items: Items, more: LastEvaluatedKey !== undefined };
}
