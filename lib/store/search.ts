/**
 * The candidate search index: items in the main table, one per (candidate, distinct token of its
 * name or email), so a search is a Query on a sort-key prefix and never a scan. Each item carries
 * a copy of the candidate's list fields, so a page of results needs no second read. The items are
 * written in the same transactions as the candidate (lib/store/candidates.ts), so the index is
 * never behind the candidate it copies.
 *
 * Layout: PK `T#<tenant>#SEARCH#<first character of the token>` (a tenant's index spread over
 * partitions at no read cost: a query word names its partition), SK `<token>#<candidate id>`.
 * The items hold personal data (the copies, and tokens derived from name and email): they are
 * `type: 'search'` with `candidate_id`, and their keys follow from the candidate's own name and
 * email, so erasing a candidate can find and delete them all. The stream filters (webhook
 * fan-out, stuck re-index) match other types only, so these items make no event.
 */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { candidate } from '../entities/candidate';
import type { Stage } from '../model';
import { ddb, tableName } from './client';
import { keys, reqStageIndexKey, TABLE_DEF } from './table';

type Item = Record<string, unknown>;

/** Tokens kept per candidate: bounds the write cost of a candidate with a very long name. */
export const MAX_TOKENS = 12;
/** Longer tokens are cut: a query word is at most 100 characters, so a cut token still matches it. */
export const MAX_TOKEN_CHARS = 100;

/** The form tokens and query words are compared in: no accents, no case, compatibility forms folded. */
export const normalize = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const cut = (t: string) => {
  const chars = Array.from(t);
  return chars.length > MAX_TOKEN_CHARS ? chars.slice(0, MAX_TOKEN_CHARS).join('') : t;
};

/**
 * A candidate's tokens: each word of the name (split on white space), the whole email, then the
 * parts of name words split on punctuation (`jean-luc` also gives `jean` and `luc`). Distinct, at
 * most MAX_TOKENS, in that order of priority.
 */
export function candidateTokens(c: { name: string; email?: string | null }): string[] {
  const words = normalize(c.name).split(/\s+/u).filter(Boolean);
  const parts = words.flatMap((w) => w.split(/[^\p{L}\p{N}]+/u).filter((p) => p && p !== w));
  const email = c.email ? [normalize(c.email).trim()].filter(Boolean) : [];
  return [...new Set([...words, ...email, ...parts].map(cut))].slice(0, MAX_TOKENS);
}

/** The words of a search, normalized like tokens; every one must prefix some token. */
export function queryWords(q: string): string[] {
  return [...new Set(normalize(q).split(/\s+/u).filter(Boolean).map(cut))];
}

/**
 * The `toks` attribute: every token preceded by a space, so "some token starts with w" is
 * `contains(toks, ' ' + w)` in a filter (tokens never hold white space).
 */
export const toksAttr = (tokens: readonly string[]) => tokens.map((t) => ` ${t}`).join('');
const toksOf = (item: Item) =>
  String(item.toks ?? '')
    .split(' ')
    .filter(Boolean);

export const searchPartition = (tenantId: string, token: string) =>
  `${keys.tenantPartition(tenantId)}#SEARCH#${Array.from(token)[0] ?? ''}`;
export const searchKey = (tenantId: string, token: string, candidateId: string) => ({
  PK: searchPartition(tenantId, token),
  SK: `${token}#${candidateId}`,
});

/**
 * The one token of a candidate at which a search on `prefix` lists it: the smallest of its
 * tokens that start with `prefix`. Decided from the candidate's own tokens, so a candidate
 * with several matching tokens is listed once whatever the page boundaries.
 */
export function listedAt(tokens: readonly string[], prefix: string): string | undefined {
  let best: string | undefined;
  for (const t of tokens) if (t.startsWith(prefix) && (best === undefined || `${t}#` < `${best}#`)) best = t;
  return best;
}

/**
 * The candidate fields a search item copies: what a list page answers, plus what it filters on
 * (the declaration's `copied`, lib/entities/candidate.ts), so erasure knows them as candidate data.
 */
const COPIED = candidate.copied;

/** The search items of a candidate (given as its item or record), one per token. */
export function searchItems(tenantId: string, candidate: Item): Item[] {
  const tokens = candidateTokens(candidate as { name: string; email?: string });
  const copy = Object.fromEntries(COPIED.filter((f) => candidate[f] !== undefined && candidate[f] !== null).map((f) => [f, candidate[f]]));
  // The rejection's reason, so a search answers it as a list does (its note is a declared field, copied above).
  if (candidate.rejection !== undefined) copy.rejection = candidate.rejection;
  const toks = toksAttr(tokens);
  return tokens.map((token) => ({
    ...searchKey(tenantId, token, String(candidate.id)),
    ...copy,
    type: 'search',
    tenant_id: tenantId,
    candidate_id: candidate.id,
    token,
    toks,
  }));
}

/** Transaction entries that make a candidate's index match `after` (deleting what `before` had beyond it). */
export function searchWrites(tenantId: string, after: Item, before?: Item) {
  const items = searchItems(tenantId, after);
  const kept = new Set(items.map((i) => i.token));
  const gone = before ? candidateTokens(before as { name: string; email?: string }).filter((t) => !kept.has(t)) : [];
  return [
    ...items.map((Item) => ({ Put: { TableName: tableName(), Item } })),
    ...gone.map((t) => ({ Delete: { TableName: tableName(), Key: searchKey(tenantId, t, String(after.id)) } })),
  ];
}

export interface SearchQuery {
  words: string[];
  stage?: Stage;
  reqId?: string;
}

/** The word the Query runs on: the longest (the most selective prefix); the others are filters. */
export const leadWord = (words: readonly string[]) => words.reduce((a, b) => (Array.from(b).length > Array.from(a).length ? b : a));

/** Query calls per page at most: a page costs a bounded number of calls whatever the index size. */
export const MAX_SEARCH_CALLS = 2;
/** Items one call may read: within DynamoDB's 1 MB per call for copies of bounded size. */
const MAX_READ = 1000;

/**
 * One page of search results after `startKey`, in token then candidate id order. At most
 * MAX_SEARCH_CALLS Queries: a page the filters leave short still reports where the index goes
 * on (`lastKey`), so the caller can offer a next page; `lastKey` is undefined at the end.
 */
export async function searchCandidates(
  tenantId: string,
  q: SearchQuery,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: Item[]; lastKey?: Record<string, unknown> }> {
  const lead = leadWord(q.words);
  const others = q.words.filter((w) => w !== lead);
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': searchPartition(tenantId, lead), ':lead': lead };
  others.forEach((w, i) => {
    names['#toks'] = 'toks';
    values[`:w${i}`] = ` ${w}`;
    filters.push(`contains(#toks, :w${i})`);
  });
  if (q.stage) {
    names['#stage'] = 'stage';
    values[':stage'] = q.stage;
    filters.push('#stage = :stage');
  }
  if (q.reqId) {
    names['#req'] = 'req_id';
    values[':req'] = q.reqId;
    filters.push('#req = :req');
  }
  const items: Item[] = [];
  let from = startKey;
  for (let call = 1; call <= MAX_SEARCH_CALLS; call++) {
    const wanted = limit - items.length;
    // Only duplicates are dropped when nothing is filtered: read about a page. With filters, read
    // more per call, so two calls fill a page unless the filters are very selective.
    const Limit = Math.min(MAX_READ, filters.length ? wanted * 8 : wanted + 8);
    const page = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :lead)',
        ...(filters.length && { FilterExpression: filters.join(' AND ') }),
        ...(Object.keys(names).length && { ExpressionAttributeNames: names }),
        ExpressionAttributeValues: values,
        ExclusiveStartKey: from,
        Limit,
      }),
    );
    for (const item of page.Items ?? []) {
      if (listedAt(toksOf(item), lead) !== item.token) continue;
      items.push(item);
      if (items.length === limit) return { items, lastKey: { PK: item.PK, SK: item.SK } };
    }
    from = page.LastEvaluatedKey;
    if (!from) return { items };
  }
  return { items, lastKey: from };
}

/**
 * Make one candidate's index entries and board-index (GSI5) attributes current, in one
 * transaction conditioned on the candidate not having changed since it was read (`updated_at`):
 * a write in between did the same itself. A candidate whose GSI5 keys are already right is only
 * checked, not written, so a second run makes no stream record for it. Returns false when the
 * candidate changed or is gone (read it again to retry).
 */
export async function reindexCandidate(tenantId: string, candidate: Item): Promise<boolean> {
  const id = String(candidate.id);
  const { partitionKey: bpk, sortKey: bsk } = TABLE_DEF.indexes.byRequisitionStage;
  const board =
    typeof candidate.req_id === 'string'
      ? reqStageIndexKey(
          tenantId,
          candidate.req_id,
          candidate.stage as Stage,
          String(candidate.stage_entered_at ?? candidate.created_at),
          id,
        )
      : undefined;
  const boardCurrent = board ? candidate[bpk] === board[bpk] && candidate[bsk] === board[bsk] : candidate[bpk] === undefined;
  const condition = {
    TableName: tableName(),
    Key: keys.candidate(tenantId, id),
    ConditionExpression: '#u = :seen',
  };
  const candidateEntry = boardCurrent
    ? {
        ConditionCheck: {
          ...condition,
          ExpressionAttributeNames: { '#u': 'updated_at' },
          ExpressionAttributeValues: { ':seen': candidate.updated_at },
        },
      }
    : {
        Update: {
          ...condition,
          UpdateExpression: board ? 'SET #bpk = :bpk, #bsk = :bsk' : 'REMOVE #bpk, #bsk',
          ExpressionAttributeNames: { '#u': 'updated_at', '#bpk': bpk, '#bsk': bsk },
          ExpressionAttributeValues: { ':seen': candidate.updated_at, ...(board && { ':bpk': board[bpk], ':bsk': board[bsk] }) },
        },
      };
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [candidateEntry, ...searchItems(tenantId, candidate).map((Item) => ({ Put: { TableName: tableName(), Item } }))],
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === 'TransactionCanceledException') return false;
    throw err;
  }
}

/**
 * Backfill a workspace's search items and GSI5 attributes from its candidates (they predate
 * them, or a fault left one behind): page by page over the candidates, one transaction per
 * candidate, a few at a time. Idempotent: a second run rewrites the same items. A candidate
 * that changes while it runs is read again; its own write already did the work.
 */
export async function reindexTenant(
  tenantId: string,
  onPage: (progress: { candidates: number; written: number }) => void = () => {},
): Promise<{ candidates: number; written: number }> {
  const progress = { candidates: 0, written: 0 };
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.tenantPartition(tenantId), ':prefix': keys.candidatePrefix },
        ConsistentRead: true,
        Limit: 200,
        ExclusiveStartKey,
      }),
    );
    const items = page.Items ?? [];
    for (let i = 0; i < items.length; i += REINDEX_PARALLEL) {
      await Promise.all(
        items.slice(i, i + REINDEX_PARALLEL).map(async (first) => {
          let candidate: Item | undefined = first;
          for (let attempt = 1; candidate && attempt <= 5; attempt++) {
            if (await reindexCandidate(tenantId, candidate)) {
              progress.written += searchItems(tenantId, candidate).length;
              break;
            }
            const { Item: again } = await ddb.send(
              new GetCommand({ TableName: tableName(), Key: keys.candidate(tenantId, String(first.id)), ConsistentRead: true }),
            );
            candidate = again;
          }
          progress.candidates++;
        }),
      );
    }
    onPage({ ...progress });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return progress;
}

/** Candidate transactions a reindex runs at once: quick on a laptop, gentle on a live table. */
const REINDEX_PARALLEL = 8;

/**
 * The candidates of a workspace whose email is `email`, case and accent blind: one Query on the
 * email's own search items (the whole email is one token). Consistent, so a candidate just
 * written is found.
 */
export async function candidateIdsByEmail(tenantId: string, email: string): Promise<string[]> {
  const wanted = normalize(email).trim();
  const token = cut(wanted);
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': searchPartition(tenantId, token), ':sk': `${token}#` },
      ProjectionExpression: 'candidate_id, email',
      ConsistentRead: true,
    }),
  );
  // A name word can be the same token, and a cut token is shared by longer emails: compare the email.
  return Items.filter((i) => typeof i.email === 'string' && normalize(i.email).trim() === wanted).map((i) => String(i.candidate_id));
}

/** A candidate using an email, and its requisition (null: none). */
export interface EmailCandidate {
  id: string;
  req_id: string | null;
}

/** Byte order, as DynamoDB orders sort keys (UTF-16 order differs past the surrogates). */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * candidateIdsByEmail for many emails at once (an import's slice): the emails' tokens grouped by
 * search partition, and each group read as one key range from its first unanswered token to its
 * last, page by page, skipping the gaps between the tokens. Emails that sort near each other (a
 * file's rows often do) cost one Query for many; a group whose range proves sparse (a page that
 * answers fewer than two of its tokens) has its remaining tokens read one exact Query each, as
 * candidateIdsByEmail does, so a spread-out file never reads much more than it would one by one.
 * Consistent, keyed by the email as given; each candidate with the requisition its search entry
 * copies (what the import's duplicate rule compares).
 */
export async function candidatesByEmails(tenantId: string, emails: readonly string[]): Promise<Map<string, EmailCandidate[]>> {
  const wantedOf = new Map(emails.map((e) => [e, normalize(e).trim()]));
  const byToken = new Map<string, string[]>();
  const groups = new Map<string, string[]>();
  for (const wanted of new Set(wantedOf.values())) {
    const token = cut(wanted);
    if (!byToken.has(token)) {
      byToken.set(token, []);
      const pk = searchPartition(tenantId, token);
      groups.set(pk, [...(groups.get(pk) ?? []), token]);
    }
  }
  const found = new Map<string, { candidate_id: string; email: string; req_id: string | null }[]>();
  const keep = (items: Item[]) => {
    for (const i of items) {
      const sk = String(i.SK);
      const token = sk.slice(0, sk.lastIndexOf('#'));
      if (byToken.has(token) && typeof i.email === 'string') {
        const req_id = typeof i.req_id === 'string' ? i.req_id : null;
        found.set(token, [...(found.get(token) ?? []), { candidate_id: String(i.candidate_id), email: i.email, req_id }]);
      }
    }
  };
  const exact = async (pk: string, token: string) => {
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await ddb.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
          ExpressionAttributeValues: { ':pk': pk, ':sk': `${token}#` },
          ProjectionExpression: 'SK, candidate_id, email, req_id',
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      keep(page.Items ?? []);
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  };
  const ranged = async (pk: string, tokens: string[]) => {
    // Sorted as their keys are: `<token>#<id>`, so a token that prefixes another sorts by '#'.
    tokens.sort((a, b) => byteOrder(`${a}#`, `${b}#`));
    let next = 0;
    let startKey: Item | undefined;
    while (next < tokens.length) {
      const left = tokens.length - next;
      const page = await ddb.send(
        new QueryCommand({
          TableName: tableName(),
          // Every key of a token `t` is below `t$` ('$' follows '#'), so the range ends with the last token's keys.
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': `${tokens[next]}#`, ':to': `${tokens.at(-1)}$` },
          ProjectionExpression: 'SK, candidate_id, email, req_id',
          ConsistentRead: true,
          Limit: Math.min(100, 2 * left + 8),
          ExclusiveStartKey: startKey,
        }),
      );
      keep(page.Items ?? []);
      const last = page.LastEvaluatedKey?.SK as string | undefined;
      if (last === undefined) return;
      const before = next;
      // A token is answered once the page has passed all of its keys.
      while (next < tokens.length && byteOrder(`${tokens[next]}$`, last) <= 0) next++;
      if (next < tokens.length && next - before < 2 && !last.startsWith(`${tokens[next]}#`)) {
        for (const t of tokens.slice(next)) await exact(pk, t);
        return;
      }
      // Mid-token: go on from the page's end; otherwise jump over the gap to the next token.
      startKey = next < tokens.length && last.startsWith(`${tokens[next]}#`) ? page.LastEvaluatedKey : undefined;
    }
  };
  await Promise.all([...groups].map(([pk, tokens]) => (tokens.length === 1 ? exact(pk, tokens[0]!) : ranged(pk, tokens))));
  const out = new Map<string, EmailCandidate[]>();
  for (const [email, wanted] of wantedOf) {
    const items = found.get(cut(wanted)) ?? [];
    // As candidateIdsByEmail: a name word can be the same token, and a cut token is shared by longer emails.
    const byId = new Map(items.filter((i) => normalize(i.email).trim() === wanted).map((i) => [i.candidate_id, i.req_id]));
    out.set(
      email,
      [...byId].map(([id, req_id]) => ({ id, req_id })),
    );
  }
  return out;
}

/** candidatesByEmails, by id alone. */
export async function candidateIdsByEmails(tenantId: string, emails: readonly string[]): Promise<Map<string, string[]>> {
  const found = await candidatesByEmails(tenantId, emails);
  return new Map([...found].map(([email, cs]) => [email, cs.map((c) => c.id)]));
}
