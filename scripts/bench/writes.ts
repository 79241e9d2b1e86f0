/**
 * What a request asks of DynamoDB, counted by a middleware on the table's client: the calls by
 * command, the items written (puts, updates and deletes, in transactions, batches or alone), how
 * many of them are audit items (intents `T#<id>#AUDITQ#<k>`, records `T#<id>#AUDIT`), the index entries written, and the write units
 * DynamoDB would charge for them.
 *
 * Write units are worked out from the requests, by DynamoDB's published rules: an item written
 * costs 1 unit per KB (its size rounded up), 2 in a transaction (a prepare and a commit), and each
 * index entry it writes 1 unit per KB more (every index projects ALL). A put's size and indexes are
 * known from its item; an update or a delete is counted as 1 KB, and an update writes an entry in
 * each index whose key attributes it names (a key that moves writes two in DynamoDB: one more than
 * counted here). DynamoDB Local's own ConsumedCapacity is no help: for a transaction it answers
 * 4 units whatever the transaction holds.
 */
import { AUDIT_INTENT_SUFFIX, AUDIT_PARTITION_SUFFIX, TABLE_DEF } from '../../lib/store/table';

type Stack = { middlewareStack: { add(mw: unknown, opts: { step: string; name?: string }): void } };

export interface Tally {
  calls: string[];
  /** Items put, updated or deleted. */
  items: number;
  conditionChecks: number;
  auditItems: number;
  indexEntries: number;
  /** Write units (see above): all, and the audit partition's. */
  units: number;
  auditUnits: number;
  /** Calls DynamoDB refused (a cancelled transaction, a failed condition). */
  refused: number;
  /** Items written, index entries and condition checks by kind of item (kindOf), and reads by command. */
  kinds: Map<string, KindTally>;
}

export interface KindTally {
  items: number;
  indexEntries: number;
  conditionChecks: number;
}

export const emptyTally = (): Tally => ({
  calls: [],
  items: 0,
  conditionChecks: 0,
  auditItems: 0,
  indexEntries: 0,
  units: 0,
  auditUnits: 0,
  refused: 0,
  kinds: new Map(),
});

const INDEXES = Object.values(TABLE_DEF.indexes);

/** A string attribute as either client sees it: the document client's plain value or `{ S }`. */
const str = (v: unknown) => (typeof v === 'string' ? v : ((v as { S?: string } | undefined)?.S ?? ''));

/** DynamoDB's item size: attribute names plus values (numbers about half their digits), in bytes. */
export function itemBytes(item: Record<string, unknown>): number {
  const size = (v: unknown): number => {
    if (v === null || v === undefined || typeof v === 'boolean') return 1;
    if (typeof v === 'string') return Buffer.byteLength(v);
    if (typeof v === 'number') return Math.ceil(String(v).replace(/[-.]/g, '').length / 2) + 1;
    if (Array.isArray(v)) return 3 + v.reduce((s: number, x) => s + 1 + size(x), 0);
    if (typeof v === 'object') {
      // A marshalled value ({ S }, { N }, …) or a map.
      const keys = Object.keys(v);
      if (keys.length === 1 && /^(S|N|B|BOOL|NULL|L|M|SS|NS|BS)$/.test(keys[0]!)) return size(Object.values(v)[0]);
      return 3 + Object.entries(v).reduce((s, [k, x]) => s + Buffer.byteLength(k) + 1 + size(x), 0);
    }
    return 0;
  };
  return Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + size(v), 0);
}

type Write = {
  Item?: Record<string, unknown>;
  Key?: Record<string, unknown>;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
};

/**
 * What an item is: a put's `type`; for an update, a delete or a check, what its key says (the
 * sort key's first segment, or the kind of partition for the search entries and audit intents).
 */
export function kindOf(w: Write): string {
  if (typeof w.Item?.type === 'string') return w.Item.type;
  const key = w.Item ?? w.Key ?? {};
  const pk = str(key.PK);
  const sk = str(key.SK);
  if (pk.includes('#SEARCH#')) return 'search';
  if (pk.includes(AUDIT_INTENT_SUFFIX)) return 'audit_intent';
  if (pk.endsWith(AUDIT_PARTITION_SUFFIX)) return 'audit';
  return sk.split('#')[0]!.toLowerCase() || 'other';
}

function kindTally(t: Tally, kind: string): KindTally {
  let k = t.kinds.get(kind);
  if (!k) t.kinds.set(kind, (k = { items: 0, indexEntries: 0, conditionChecks: 0 }));
  return k;
}

/** Index entries one write makes: from a put's item, or from the attributes an update names. */
function indexEntries(w: Write): number {
  if (w.Item) return INDEXES.filter((i) => w.Item![i.partitionKey] !== undefined && w.Item![i.sortKey] !== undefined).length;
  if (!w.UpdateExpression) return 0;
  const named = new Set([...w.UpdateExpression.matchAll(/[#\w]+/g)].map(([t]) => w.ExpressionAttributeNames?.[t] ?? t));
  return INDEXES.filter((i) => named.has(i.partitionKey) || named.has(i.sortKey)).length;
}

function count(t: Tally, w: Write, transact: boolean) {
  const kb = w.Item ? Math.ceil(itemBytes(w.Item) / 1024) : 1;
  const entries = indexEntries(w);
  const units = kb * (transact ? 2 : 1) + entries * kb;
  t.items++;
  t.indexEntries += entries;
  t.units += units;
  const k = kindTally(t, kindOf(w));
  k.items++;
  k.indexEntries += entries;
  if (w.Item && (str(w.Item.PK).endsWith(AUDIT_PARTITION_SUFFIX) || str(w.Item.PK).includes(AUDIT_INTENT_SUFFIX))) {
    t.auditItems++;
    t.auditUnits += units;
  }
}

const WRITES = /^(PutItem|Put|UpdateItem|Update|DeleteItem|Delete)Command$/;

/**
 * Count every command `client` sends into `tally()`, read at each call: a caller swaps it between
 * requests, and counting stops while it is undefined.
 */
export function countWrites(client: Stack): { use(t: Tally | undefined): void } {
  let tally: Tally | undefined;
  client.middlewareStack.add(
    (next: (a: unknown) => Promise<unknown>, ctx: { commandName?: string }) => async (args: { input: Record<string, any> }) => {
      const t = tally;
      if (!t) return next(args);
      const name = String(ctx.commandName);
      const input = args.input;
      t.calls.push(name);
      if (WRITES.test(name)) count(t, input, false);
      else if (/^TransactWrite(Items)?Command$/.test(name)) {
        for (const x of input.TransactItems ?? []) {
          if (x.ConditionCheck) {
            t.conditionChecks++;
            kindTally(t, kindOf(x.ConditionCheck)).conditionChecks++;
          } else count(t, x.Put ?? x.Update ?? x.Delete, true);
        }
      } else if (/^BatchWrite(Item)?Command$/.test(name)) {
        for (const reqs of Object.values(input.RequestItems ?? {}) as { PutRequest?: Write; DeleteRequest?: Write }[][])
          for (const r of reqs) count(t, r.PutRequest ?? r.DeleteRequest ?? {}, false);
      }
      try {
        return await next(args);
      } catch (err) {
        t.refused++;
        throw err;
      }
    },
    { step: 'initialize', name: 'benchWriteCount' },
  );
  return { use: (t) => (tally = t) };
}
