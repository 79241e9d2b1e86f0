/**
 * Notes on a person: writing, listing, reading with the edit history, editing (the author only),
 * deleting (the author or an admin; audited by id), mentions in the members' inboxes, and the
 * person's activity feed; each route's isolation between workspaces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAudit } from '../helpers/audit';
import { scanTable } from '../helpers/scan';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../helpers/stack';
import { newPerson } from '../helpers/people';

let stack: Stack;
let a: TestTenant;
let b: TestTenant;
const who: Record<'alice' | 'bob' | 'carol' | 'dave', { id: string; email: string; cookie: string }> = {} as never;
/** Alice's token (she made it: it writes as her), and a token the admin CLI made (no member behind it). */
let aliceToken: string;
let cliToken: string;
let cookieB: string;

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });

beforeAll(async () => {
  stack = await startStack();
  [a, b] = [await stack.tenant(), await stack.tenant()];
  for (const [name, role] of [
    ['alice', 'recruiter'],
    ['bob', 'recruiter'],
    ['carol', 'admin'],
    ['dave', 'recruiter'],
  ] as const) {
    const u = await a.user(role);
    who[name] = { ...u, cookie: await stack.login(u.email, PASSWORD) };
  }
  const made = await stack.call(
    'POST',
    '/api/tokens',
    as(who.alice.cookie, { name: 'alice sync', scopes: ['candidates:read', 'candidates:write'] }),
  );
  expect(made.status, made.text).toBe(201);
  aliceToken = made.body.data.token;
  cliToken = await a.token(['*']);
  cookieB = await stack.login((await b.user('admin')).email, PASSWORD);
});
afterAll(() => stack.close());

const notesOf = (personId: string) => `/api/v1/people/${personId}/notes`;
const post = (personId: string, body: Record<string, unknown>, token = aliceToken) =>
  stack.call('POST', notesOf(personId), { token, body });

describe('writing a note', () => {
  it('a token writes as the member who made it; the note answers its author, and lists newest first', async () => {
    const { personId, candidateId } = await newPerson(stack, cliToken);
    const first = await post(personId, {
      body: 'Phone screen went well.\nStrong on systems.',
      visibility: 'team',
      candidate_id: candidateId,
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({
      person_id: personId,
      candidate_id: candidateId,
      body: 'Phone screen went well.\nStrong on systems.',
      visibility: 'team',
      author: { type: 'user', id: who.alice.id, email: who.alice.email },
      mentions: [],
      edited_at: null,
    });
    const second = await stack.call('POST', `/api/people/${personId}/notes`, as(who.bob.cookie, { body: 'Second', visibility: 'team' }));
    expect(second.status, second.text).toBe(201);
    const list = await stack.call('GET', notesOf(personId), { token: cliToken });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((n: { body: string }) => n.body)).toEqual(['Second', 'Phone screen went well.\nStrong on systems.']);
    expect(list.body.next_cursor).toBeNull();
  });

  it('a token no member made writes as itself, and no private note', async () => {
    const { personId } = await newPerson(stack, cliToken);
    const team = await post(personId, { body: 'From the ATS', visibility: 'team' }, cliToken);
    expect(team.status, team.text).toBe(201);
    expect(team.body.data.author).toMatchObject({ type: 'token', email: null });
    const priv = await post(personId, { body: 'Secret', visibility: 'private' }, cliToken);
    expect([priv.status, priv.body.field]).toEqual([400, 'visibility']);
  });

  it.each([
    ['an empty body', { body: '', visibility: 'team' }, 'body'],
    ['a body over 10,000 characters', { body: 'x'.repeat(10_001), visibility: 'team' }, 'body'],
    ['a control character', { body: 'a\u0007b', visibility: 'team' }, 'body'],
    ['no visibility', { body: 'x' }, 'visibility'],
    ['an unknown visibility', { body: 'x', visibility: 'public' }, 'visibility'],
    ['a candidate_id not a UUID', { body: 'x', visibility: 'team', candidate_id: 'c1' }, 'candidate_id'],
    ['mentions not member ids', { body: 'x', visibility: 'team', mentions: ['nobody'] }, 'mentions'],
    ['an unknown key', { body: 'x', visibility: 'team', pinned: true }, 'pinned'],
  ])('refuses %s with a 400 naming the field', async (_what, body, field) => {
    const { personId } = await newPerson(stack, cliToken);
    const res = await post(personId, body);
    expect(res.status, res.text).toBe(400);
    expect(String(res.body.field).startsWith(field), res.body.field).toBe(true);
  });

  it("refuses another person's candidate (400 candidate_id), another workspace's person (404) and member (400 mentions)", async () => {
    const { personId } = await newPerson(stack, cliToken);
    const other = await newPerson(stack, cliToken);
    const wrong = await post(personId, { body: 'x', visibility: 'team', candidate_id: other.candidateId });
    expect([wrong.status, wrong.body.field]).toEqual([400, 'candidate_id']);
    const theirs = await newPerson(stack, await b.token(['*']));
    const foreign = await post(theirs.personId, { body: 'x', visibility: 'team' });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    expect((await stack.call('GET', notesOf(theirs.personId), { token: aliceToken })).status).toBe(404);
    expect((await stack.call('GET', `/api/people/${personId}/notes`, as(cookieB))).status).toBe(404);
    const outsider = (await b.user('recruiter')).id;
    const mention = await post(personId, { body: 'x', visibility: 'team', mentions: [outsider] });
    expect([mention.status, mention.body.field]).toEqual([400, 'mentions']);
  });

  it('a token needs candidates:write to write and candidates:read to read', async () => {
    const { personId } = await newPerson(stack, cliToken);
    const reader = await a.token(['candidates:read']);
    expect((await post(personId, { body: 'x', visibility: 'team' }, reader)).status).toBe(403);
    expect((await stack.call('GET', notesOf(personId), { token: await a.token(['pipeline:read']) })).status).toBe(403);
    expect((await stack.call('GET', notesOf(personId), { token: reader })).status).toBe(200);
  });
});

describe('editing and deleting', () => {
  it('the author edits and the replaced body is kept, readable with the note; another member may not edit', async () => {
    const { personId } = await newPerson(stack, cliToken);
    const id = (await post(personId, { body: 'First take', visibility: 'team' })).body.data.id;
    const path = `/api/people/${personId}/notes/${id}`;
    expect((await stack.call('PATCH', path, as(who.bob.cookie, { body: 'Bob rewrites' }))).status).toBe(403);
    const edit = await stack.call('PATCH', path, as(who.alice.cookie, { body: 'Second take' }));
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.data.body).toBe('Second take');
    expect(edit.body.data.edited_at).not.toBeNull();
    await stack.call('PATCH', path, as(who.alice.cookie, { body: 'Third take' }));
    const read = await stack.call('GET', `/api/v1/people/${personId}/notes/${id}`, { token: cliToken });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.body).toBe('Third take');
    expect(read.body.data.history.map((v: { body: string }) => v.body)).toEqual(['First take', 'Second take']);
  });

  it("a member may not delete another's note; an admin may; the audit names the note, never its body; nothing of it stays", async () => {
    const { personId } = await newPerson(stack, cliToken);
    const id = (await post(personId, { body: 'Delete-me body text', visibility: 'team', mentions: [who.dave.id] })).body.data.id;
    await stack.call('PATCH', `/api/v1/people/${personId}/notes/${id}`, { token: aliceToken, body: { body: 'Delete-me edited' } });
    const path = `/api/people/${personId}/notes/${id}`;
    expect((await stack.call('DELETE', path, as(who.bob.cookie))).status).toBe(403);
    const del = await stack.call('DELETE', path, as(who.carol.cookie));
    expect(del.status, del.text).toBe(200);
    expect((await stack.call('GET', `/api/v1/people/${personId}/notes/${id}`, { token: cliToken })).status).toBe(404);
    await settleAudit();
    const audit = await stack.call('GET', `/api/audit?target=${id}`, as(who.carol.cookie));
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.data.map((r: { action: string }) => r.action).sort()).toEqual(['note.created', 'note.deleted', 'note.edited']);
    const items = await scanTable({});
    expect(JSON.stringify(items)).not.toContain('Delete-me');
    // Dave's mention left with the note, and his unread count with it.
    const inbox = await stack.call('GET', '/api/mentions', as(who.dave.cookie));
    expect(inbox.body.data.filter((m: { note_id: string }) => m.note_id === id)).toEqual([]);
  });
});

describe('mentions', () => {
  it("each mentioned member's inbox has it, unread first with the count; reading it moves it; a mention never grants sight", async () => {
    const { personId } = await newPerson(stack, cliToken);
    const before = (await stack.call('GET', '/api/mentions', as(who.bob.cookie))).body.unread as number;
    const n1 = (await post(personId, { body: 'Bob, look', visibility: 'team', mentions: [who.bob.id, who.bob.id] })).body.data;
    expect(n1.mentions).toEqual([who.bob.id]);
    const n2 = (await post(personId, { body: 'Bob again', visibility: 'team', mentions: [who.bob.id] })).body.data;
    let inbox = await stack.call('GET', '/api/mentions?limit=100', as(who.bob.cookie));
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.body.unread).toBe(before + 2);
    const mine = inbox.body.data.filter((m: { person_id: string }) => m.person_id === personId);
    expect(mine.map((m: { note_id: string }) => m.note_id)).toEqual([n2.id, n1.id]);
    expect(JSON.stringify(inbox.body)).not.toContain('Bob, look');
    const read = await stack.call('POST', `/api/mentions/${mine[1].id}/read`, as(who.bob.cookie));
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.read_at).not.toBeNull();
    expect((await stack.call('POST', `/api/mentions/${mine[1].id}/read`, as(who.bob.cookie))).status).toBe(200);
    inbox = await stack.call('GET', '/api/mentions?limit=100', as(who.bob.cookie));
    expect(inbox.body.unread).toBe(before + 1);
    const ids = inbox.body.data.map((m: { id: string }) => m.id);
    expect(ids.indexOf(mine[0].id)).toBeLessThan(ids.indexOf(mine[1].id));
    // Another member cannot read Bob's mention, nor another workspace.
    expect((await stack.call('POST', `/api/mentions/${mine[0].id}/read`, as(who.alice.cookie))).status).toBe(404);
    expect((await stack.call('POST', `/api/mentions/${mine[0].id}/read`, as(cookieB))).status).toBe(404);
    // Mentioning someone who may not see the note is refused: a private note, or a member on an admins note.
    const priv = await post(personId, { body: 'x', visibility: 'private', mentions: [who.bob.id] });
    expect([priv.status, priv.body.field]).toEqual([400, 'mentions']);
    const admins = await post(personId, { body: 'x', visibility: 'admins', mentions: [who.bob.id] });
    expect([admins.status, admins.body.field]).toEqual([400, 'mentions']);
    expect((await post(personId, { body: 'x', visibility: 'admins', mentions: [who.carol.id] })).status).toBe(201);
  });

  it('pages with a cursor, unread then read', async () => {
    const { personId } = await newPerson(stack, cliToken);
    for (let i = 0; i < 3; i++) await post(personId, { body: `n${i}`, visibility: 'team', mentions: [who.dave.id] });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Awaited<ReturnType<Stack['call']>> = await stack.call(
        'GET',
        `/api/mentions?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        as(who.dave.cookie),
      );
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.map((m: { id: string }) => m.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(3);
  });

  it("erasing the person takes their notes' mentions out of every inbox, with the unread counts, and every note and feed item", async () => {
    const { personId, candidateId } = await newPerson(stack, cliToken);
    const unread = async () => (await stack.call('GET', '/api/mentions?limit=100', as(who.dave.cookie))).body;
    const before = (await unread()).unread as number;
    await post(personId, { body: 'Erasable one', visibility: 'team', mentions: [who.dave.id, who.bob.id] });
    const two = (await post(personId, { body: 'Erasable two', visibility: 'team', mentions: [who.dave.id] })).body.data;
    await stack.call('PATCH', `/api/v1/people/${personId}/notes/${two.id}`, { token: aliceToken, body: { body: 'Erasable two, edited' } });
    const mine = (await unread()).data.find((m: { note_id: string }) => m.note_id === two.id);
    await stack.call('POST', `/api/mentions/${mine.id}/read`, as(who.dave.cookie));
    expect((await unread()).unread).toBe(before + 1);
    await settleAudit();
    const erased = await stack.call('POST', `/api/v1/candidates/${candidateId}/erase`, { token: cliToken });
    expect(erased.status, erased.text).toBe(200);
    const after = await unread();
    expect(after.unread).toBe(before);
    expect(after.data.filter((m: { person_id: string }) => m.person_id === personId)).toEqual([]);
    // Nothing of the person's notes, their history, feed or mentions is left anywhere in the table.
    await settleAudit();
    const items = await scanTable({});
    expect(
      items.filter((i) => JSON.stringify(i).includes(personId) && ['note', 'note_version', 'activity', 'mention'].includes(String(i.type))),
    ).toEqual([]);
    expect(JSON.stringify(items)).not.toContain('Erasable');
  });
});
