/**
 * The person's activity feed (written from the audit intents, as the maintenance consumer does:
 * settleAudit runs its code), its cost, and the private note: never returned to anyone but its
 * author by any route, feed, search, event or audit record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { auditCli } from '../../lib/domain/audit-migration';
import { DEFAULT_REJECTION_REASONS } from '../../lib/model';
import { ddb, tableName } from '../../lib/store/client';
import { eventsFromChange } from '../../lib/webhooks/events';
import { settleAudit } from '../helpers/audit';
import { newPerson } from '../helpers/people';
import { scanTable } from '../helpers/scan';
import { COUNTING_STACK, PASSWORD, recordDynamoDbCommands, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let a: TestTenant;
let token: string;
const cookies: Record<'alice' | 'bob' | 'carol', string> = {} as never;
const ids: Record<'alice' | 'bob' | 'carol', string> = {} as never;
let aliceToken: string;
const sent: string[] = [];
let counting = false;

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });

beforeAll(async () => {
  stack = await startStack(COUNTING_STACK);
  await recordDynamoDbCommands(sent, () => counting);
  a = await stack.tenant();
  token = await a.token(['*']);
  for (const [name, role] of [
    ['alice', 'recruiter'],
    ['bob', 'recruiter'],
    ['carol', 'admin'],
  ] as const) {
    const u = await a.user(role);
    ids[name] = u.id;
    cookies[name] = await stack.login(u.email, PASSWORD);
  }
  const made = await stack.call(
    'POST',
    '/api/tokens',
    as(cookies.alice, { name: 'alice', scopes: ['candidates:read', 'candidates:write'] }),
  );
  aliceToken = made.body.data.token;
});
afterAll(() => stack.close());

type Item = { id: string; kind: string; at: string; actor: { type: string; id: string; name?: string }; [k: string]: unknown };
const feed = async (personId: string, opts: { token?: string; cookie?: string } = { token }) => {
  const res = opts.cookie
    ? await stack.call('GET', `/api/people/${personId}/activity?limit=100`, as(opts.cookie))
    : await stack.call('GET', `/api/v1/people/${personId}/activity?limit=100`, { token: opts.token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Item[];
};

describe('the activity feed', () => {
  it('merges the moves (with the rejection reason), edits (field names only), requisition changes and notes, newest first', async () => {
    const { personId, candidateId } = await newPerson(stack, token, { phone: '+1 555 0100' });
    const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Feed Engineer' } });
    expect(req.status, req.text).toBe(201);
    await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: candidateId, stage: 'interviewed' } });
    const reason = DEFAULT_REJECTION_REASONS[0]!;
    const rejected = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: candidateId, stage: 'rejected', rejection_reason_id: reason.id },
    });
    expect(rejected.status, rejected.text).toBe(200);
    await stack.call('PATCH', `/api/v1/candidates/${candidateId}`, { token, body: { phone: '+1 555 0199' } });
    await stack.call('PATCH', `/api/v1/candidates/${candidateId}`, { token, body: { req_id: req.body.data.id } });
    const note = await stack.call('POST', `/api/people/${personId}/notes`, as(cookies.bob, { body: 'Feed note', visibility: 'team' }));
    expect(note.status, note.text).toBe(201);
    await settleAudit();
    const items = await feed(personId);
    expect(items.map((i) => i.kind)).toEqual([
      'note.created',
      'candidate.requisition_changed',
      'candidate.edited',
      'candidate.stage_changed',
      'candidate.stage_changed',
      'candidate.created',
    ]);
    expect(items.map((i) => i.at)).toEqual([...items.map((i) => i.at)].sort().reverse());
    const byKind = (k: string) => items.filter((i) => i.kind === k);
    expect(byKind('candidate.stage_changed')[0]).toMatchObject({
      candidate_id: candidateId,
      from: 'interviewed',
      to: 'rejected',
      rejection_reason_id: reason.id,
      rejection_reason_label: reason.label,
      rejection_type: reason.type,
      actor: { type: 'token' },
    });
    expect(byKind('candidate.edited')[0]).toMatchObject({ fields: ['phone'] });
    expect(byKind('candidate.requisition_changed')[0]).toMatchObject({ from_req_id: null, to_req_id: req.body.data.id });
    expect(byKind('note.created')[0]).toMatchObject({ note_id: note.body.data.id, actor: { type: 'user', id: ids.bob } });
    // Field names only: no personal value reaches the feed.
    const text = JSON.stringify(items);
    for (const value of ['+1 555 0100', '+1 555 0199', 'Noor Notes', 'Feed note']) expect(text).not.toContain(value);
    // Settling again (a redelivered stream record) writes nothing new.
    await settleAudit();
    expect(await feed(personId)).toHaveLength(items.length);
  });

  it('`audit settle` writes the feed items the kept intents stand for that are missing', async () => {
    const { personId } = await newPerson(stack, token);
    await stack.call('POST', `/api/v1/people/${personId}/notes`, { token, body: { body: 'settled', visibility: 'team' } });
    await settleAudit();
    const items = await scanTable({
      FilterExpression: 'PK = :pk AND begins_with(SK, :act)',
      ExpressionAttributeValues: { ':pk': `T#${a.id}#PERSON#${personId}`, ':act': 'ACT#' },
    });
    expect(items).toHaveLength(2);
    // As if the consumer had been down past the stream's 24 hours.
    for (const i of items) await ddb.send(new DeleteCommand({ TableName: tableName(), Key: { PK: i.PK, SK: i.SK } }));
    expect(await feed(personId)).toEqual([]);
    await auditCli('settle', a.slug, () => {});
    expect((await feed(personId)).map((i) => i.kind)).toEqual(['note.created', 'candidate.created']);
  });

  it('pages with a cursor; a person of another workspace is a 404', async () => {
    const { personId } = await newPerson(stack, token);
    for (let i = 0; i < 4; i++)
      await stack.call('POST', `/api/v1/people/${personId}/notes`, { token, body: { body: `p${i}`, visibility: 'team' } });
    await settleAudit();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Awaited<ReturnType<Stack['call']>> = await stack.call(
        'GET',
        `/api/v1/people/${personId}/activity?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token },
      );
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.map((i: Item) => i.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    const b = await stack.tenant();
    expect((await stack.call('GET', `/api/v1/people/${personId}/activity`, { token: await b.token(['*']) })).status).toBe(404);
  });

  it("a candidate's create, move and edit reach the feed without a read of the candidate; the records keep no person id", async () => {
    const { personId, candidateId } = await newPerson(stack, token);
    const moved = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: candidateId, stage: 'interviewed' } });
    expect(moved.status, moved.text).toBe(200);
    const edited = await stack.call('PATCH', `/api/v1/candidates/${candidateId}`, { token, body: { phone: '+1 555 0142' } });
    expect(edited.status, edited.text).toBe(200);
    sent.length = 0;
    counting = true;
    await settleAudit();
    counting = false;
    // The settle's own Scan for the intents, then per record its put and its feed item's transaction.
    expect(sent.filter((c) => c === 'GetItemCommand')).toEqual([]);
    expect((await feed(personId)).map((i) => i.kind)).toEqual(['candidate.edited', 'candidate.stage_changed', 'candidate.created']);
    const records = await scanTable({
      FilterExpression: '#type = :audit AND target_id = :id',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':audit': 'audit', ':id': candidateId },
    });
    expect(records.map((r) => r.action).sort()).toEqual(['candidate.created', 'candidate.stage_changed', 'candidate.updated']);
    for (const r of records) expect(r).not.toHaveProperty('person_id');
  });

  it('the first page costs at most 2 DynamoDB calls, with 5 or 60 items', async () => {
    const calls: string[][] = [];
    for (const n of [5, 60]) {
      const { personId } = await newPerson(stack, token);
      for (let i = 1; i < n; i++)
        await stack.call('POST', `/api/v1/people/${personId}/notes`, { token, body: { body: `c${i}`, visibility: 'team' } });
      await settleAudit();
      await feed(personId); // warm the authorizer cache
      sent.length = 0;
      counting = true;
      const items = await feed(personId);
      counting = false;
      expect(items).toHaveLength(n);
      calls.push([...sent].sort());
    }
    expect(calls).toEqual([
      ['GetItemCommand', 'QueryCommand'],
      ['GetItemCommand', 'QueryCommand'],
    ]);
  });
});

describe('a private note', () => {
  it('is never returned to anyone but its author: by any route, feed, search, event or audit record', async () => {
    const { personId, candidateId } = await newPerson(stack, token);
    const secret = 'Zanzibarquux salary expectations';
    const res = await stack.call(
      'POST',
      `/api/people/${personId}/notes`,
      as(cookies.alice, { body: secret, visibility: 'private', candidate_id: candidateId }),
    );
    expect(res.status, res.text).toBe(201);
    const noteId = res.body.data.id as string;
    await stack.call('PATCH', `/api/people/${personId}/notes/${noteId}`, as(cookies.alice, { body: `${secret} (edited)` }));
    await settleAudit();

    // The author sees it, on the list, by id (with its history) and in the feed.
    const own = await stack.call('GET', `/api/people/${personId}/notes`, as(cookies.alice));
    expect(own.body.data.map((n: { id: string }) => n.id)).toEqual([noteId]);
    expect((await stack.call('GET', `/api/people/${personId}/notes/${noteId}`, as(cookies.alice))).body.data.history).toHaveLength(1);
    expect(
      (await feed(personId, { cookie: cookies.alice }))
        .filter((i) => i.note_id === noteId)
        .map((i) => i.kind)
        .sort(),
    ).toEqual(['note.created', 'note.edited']);

    // Nobody else: another member, an admin, a token with every scope, even Alice's own token.
    const others = [{ cookie: cookies.bob }, { cookie: cookies.carol }, { token }, { token: aliceToken }];
    for (const o of others) {
      const list = o.cookie
        ? await stack.call('GET', `/api/people/${personId}/notes`, as(o.cookie))
        : await stack.call('GET', `/api/v1/people/${personId}/notes`, { token: o.token });
      expect(list.status, list.text).toBe(200);
      expect(list.body.data).toEqual([]);
      const one = o.cookie
        ? await stack.call('GET', `/api/people/${personId}/notes/${noteId}`, as(o.cookie))
        : await stack.call('GET', `/api/v1/people/${personId}/notes/${noteId}`, { token: o.token });
      expect([one.status, one.body.code]).toEqual([404, 'not_found']);
      const items = await feed(personId, o);
      expect(items.filter((i) => i.note_id === noteId)).toEqual([]);
      expect(JSON.stringify(items)).not.toContain('Zanzibarquux');
    }
    // Nor edited or deleted by another: to them it does not exist.
    expect((await stack.call('PATCH', `/api/people/${personId}/notes/${noteId}`, as(cookies.bob, { body: 'x' }))).status).toBe(404);
    expect((await stack.call('DELETE', `/api/people/${personId}/notes/${noteId}`, as(cookies.carol))).status).toBe(404);

    // Search: the body is not indexed.
    const search = await stack.call('GET', '/api/v1/candidates?q=zanzibarquux', { token });
    expect(search.body.data).toEqual([]);
    // The audit log (admins): the records name the note and its fields, never the body.
    const audit = await stack.call('GET', `/api/audit?target=${noteId}`, as(cookies.carol));
    expect(audit.body.data.length).toBe(2);
    expect(JSON.stringify(audit.body)).not.toContain('Zanzibarquux');
    // Events: the note's stream record (its insert) sends nothing.
    const [item] = await scanTable({
      FilterExpression: 'id = :id AND #t = :note',
      ExpressionAttributeNames: { '#t': 'type' },
      ExpressionAttributeValues: { ':id': noteId, ':note': 'note' },
    });
    expect(item).toBeDefined();
    expect(
      eventsFromChange({ id: 'evt-1', name: 'INSERT', keys: { PK: item!.PK, SK: item!.SK }, newImage: item, sequence: '1' } as never),
    ).toEqual([]);
    // No mention, no inbox: a private note mentions nobody.
    const inbox = await stack.call('GET', '/api/mentions', as(cookies.bob));
    expect(JSON.stringify(inbox.body)).not.toContain(noteId);
  });
});
