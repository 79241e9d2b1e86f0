/**
 * What a hiring manager and an interviewer see of people (lib/domain/person-sight.ts): a person
 * through the candidates of theirs the viewer sees, and of that person only the records tied to
 * no candidate or to a seen one. One test per rule proves a hidden record is absent from the
 * person's page, the notes list, the feed and the files list, and that a direct read of it is the
 * 404 of a record that does not exist; a hiring manager writes notes only where they see.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRecord } from '../../lib/entities/file';
import { ddb, tableName } from '../../lib/store/client';
import { fileItem } from '../../lib/store/files';
import { settleAudit } from '../helpers/audit';
import { COUNTING_STACK, PASSWORD, recordDynamoDbCommands, startStack, type Stack, type TestTenant } from '../helpers/stack';

let stack: Stack;
let t: TestTenant;
let adminToken: string;
const users: Record<'hm' | 'otherHm' | 'interviewer' | 'recruiter', { id: string; cookie: string }> = {} as never;
let mine: string;
let theirs: string;
/** Two-job Tess: a candidate on `mine` and one on `theirs`. Hidden Hugo: on `theirs` only. */
const person: Record<'tess' | 'hugo', string> = {} as never;
const cand: Record<'tessMine' | 'tessTheirs' | 'hugo', string> = {} as never;
const note: Record<'loose' | 'aboutMine' | 'aboutTheirs' | 'admins' | 'private' | 'hugo', string> = {} as never;
const file: Record<'tess' | 'hugo', string> = {} as never;
const sent: string[] = [];
let counting = false;

const as = (cookie: string, body?: unknown) => ({ headers: { Cookie: cookie }, ...(body !== undefined && { body }) });
const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((r) => r.id);

async function putFile(personId: string): Promise<string> {
  const f: FileRecord = {
    id: randomUUID(),
    person_id: personId,
    kind: 'resume',
    filename: 'cv.pdf',
    content_type: 'application/pdf',
    size: 1024,
    sha256: 'a'.repeat(64),
    status: 'ready',
    refusal_code: null,
    has_text: false,
    text_truncated: false,
    uploaded_by_type: 'token',
    uploaded_by_id: randomUUID(),
    created_at: new Date().toISOString(),
    processed_at: new Date().toISOString(),
  } as FileRecord;
  await ddb.send(new PutCommand({ TableName: tableName(), Item: fileItem(t.id, f) }));
  return f.id;
}

beforeAll(async () => {
  stack = await startStack(COUNTING_STACK);
  await recordDynamoDbCommands(sent, () => counting);
  t = await stack.tenant();
  adminToken = await t.token(['*']);
  for (const [key, role] of [
    ['hm', 'hiring_manager'],
    ['otherHm', 'hiring_manager'],
    ['interviewer', 'interviewer'],
    ['recruiter', 'recruiter'],
  ] as const) {
    const u = await t.user(role);
    users[key] = { id: u.id, cookie: await stack.login(u.email, PASSWORD) };
  }
  const req = async (title: string, team: object) => {
    const res = await stack.call('POST', '/api/v1/requisitions', { token: adminToken, body: { title, ...team } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  mine = await req('Seen Engineer', { hiring_manager_ids: [users.hm.id] });
  theirs = await req('Hidden Engineer', { hiring_manager_ids: [users.otherHm.id] });
  const candidate = async (name: string, email: string, reqId: string) => {
    const res = await stack.call('POST', '/api/v1/candidates', {
      token: adminToken,
      body: { name, email, phone: '+1 555 0100', req_id: reqId },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string; person_id: string };
  };
  const tessEmail = `tess-${randomUUID().slice(0, 8)}@example.com`;
  const tessMine = await candidate('Two-job Tess', tessEmail, mine);
  const tessTheirs = await candidate('Two-job Tess', tessEmail, theirs);
  expect(tessTheirs.person_id).toBe(tessMine.person_id);
  const hugo = await candidate('Hidden Hugo', `hugo-${randomUUID().slice(0, 8)}@example.com`, theirs);
  Object.assign(person, { tess: tessMine.person_id, hugo: hugo.person_id });
  Object.assign(cand, { tessMine: tessMine.id, tessTheirs: tessTheirs.id, hugo: hugo.id });
  const write = async (personId: string, body: object, cookie = users.recruiter.cookie) => {
    const res = await stack.call('POST', `/api/people/${personId}/notes`, as(cookie, { body: 'A note', visibility: 'team', ...body }));
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  note.loose = await write(person.tess, {});
  note.aboutMine = await write(person.tess, { candidate_id: cand.tessMine });
  note.aboutTheirs = await write(person.tess, { candidate_id: cand.tessTheirs });
  note.admins = await write(person.tess, { visibility: 'admins' });
  note.private = await write(person.tess, { visibility: 'private' });
  note.hugo = await write(person.hugo, {});
  file.tess = await putFile(person.tess);
  file.hugo = await putFile(person.hugo);
  await settleAudit();
});
afterAll(() => stack.close());

describe('a hiring manager sees a person through the candidates on their requisitions', () => {
  it("the person's page lists only their requisition's candidate", async () => {
    const res = await stack.call('GET', `/api/people/${person.tess}`, as(users.hm.cookie));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.candidates.map((c: { id: string }) => c.id)).toEqual([cand.tessMine]);
    // The recruiter sees both.
    const all = await stack.call('GET', `/api/people/${person.tess}`, as(users.recruiter.cookie));
    expect(all.body.data.candidates.map((c: { id: string }) => c.id).sort()).toEqual([cand.tessMine, cand.tessTheirs].sort());
  });

  it('notes: team notes of no candidate or of theirs; never another job’s, another’s private, or an admins note', async () => {
    const list = await stack.call('GET', `/api/people/${person.tess}/notes?limit=100`, as(users.hm.cookie));
    expect(list.status, list.text).toBe(200);
    expect(ids(list).sort()).toEqual([note.loose, note.aboutMine].sort());
    for (const id of [note.aboutTheirs, note.admins, note.private])
      expect((await stack.call('GET', `/api/people/${person.tess}/notes/${id}`, as(users.hm.cookie))).status, id).toBe(404);
    expect((await stack.call('GET', `/api/people/${person.tess}/notes/${note.aboutMine}`, as(users.hm.cookie))).status).toBe(200);
    // The recruiter sees the other job's note (and not the admins one).
    const theirsList = await stack.call('GET', `/api/people/${person.tess}/notes?limit=100`, as(users.recruiter.cookie));
    expect(ids(theirsList)).toContain(note.aboutTheirs);
  });

  it("the feed holds nothing of the other job's candidate", async () => {
    const feed = async (cookie: string) => {
      const res = await stack.call('GET', `/api/people/${person.tess}/activity?limit=100`, as(cookie));
      expect(res.status, res.text).toBe(200);
      return res.body.data as Array<{ candidate_id?: string; note_id?: string }>;
    };
    const recruiter = await feed(users.recruiter.cookie);
    // The recruiter's feed has the other job's items: the rule below is not passing by an empty feed.
    expect(recruiter.some((i) => i.candidate_id === cand.tessTheirs)).toBe(true);
    const hm = await feed(users.hm.cookie);
    expect(hm.some((i) => i.candidate_id === cand.tessMine)).toBe(true);
    expect(hm.filter((i) => i.candidate_id === cand.tessTheirs)).toEqual([]);
    expect(hm.filter((i) => i.note_id === note.aboutTheirs || i.note_id === note.admins || i.note_id === note.private)).toEqual([]);
  });

  it("files: the seen person's, read, listed and downloadable", async () => {
    const list = await stack.call('GET', `/api/people/${person.tess}/files`, as(users.hm.cookie));
    expect([list.status, ids(list)]).toEqual([200, [file.tess]]);
    expect((await stack.call('GET', `/api/people/${person.tess}/files/${file.tess}`, as(users.hm.cookie))).status).toBe(200);
    expect((await stack.call('GET', `/api/people/${person.tess}/files/${file.tess}/text`, as(users.hm.cookie))).status).toBe(200);
  });

  it('a person they see no candidate of is a 404 on every read, as one that does not exist', async () => {
    const { cookie } = users.hm;
    for (const path of [
      `/api/people/${person.hugo}`,
      `/api/people/${person.hugo}/notes`,
      `/api/people/${person.hugo}/notes/${note.hugo}`,
      `/api/people/${person.hugo}/activity`,
      `/api/people/${person.hugo}/files`,
      `/api/people/${person.hugo}/files/${file.hugo}`,
      `/api/people/${person.hugo}/files/${file.hugo}/text`,
      `/api/people/${person.hugo}/files/${file.hugo}/download`,
    ]) {
      const res = await stack.call('GET', path, as(cookie));
      expect([res.status, res.body.code], path).toEqual([404, 'not_found']);
    }
    const written = await stack.call('POST', `/api/people/${person.hugo}/notes`, as(cookie, { body: 'Hi', visibility: 'team' }));
    expect(written.status).toBe(404);
    const edit = await stack.call('PATCH', `/api/people/${person.hugo}/notes/${note.hugo}`, as(cookie, { body: 'Mine now' }));
    expect(edit.status).toBe(404);
  });

  it('writes notes on the person they see, about their candidate only, mentioning only who sees it', async () => {
    const { cookie } = users.hm;
    const ok = await stack.call(
      'POST',
      `/api/people/${person.tess}/notes`,
      as(cookie, { body: 'Strong', visibility: 'team', candidate_id: cand.tessMine, mentions: [users.recruiter.id] }),
    );
    expect(ok.status, ok.text).toBe(201);
    const otherJob = await stack.call(
      'POST',
      `/api/people/${person.tess}/notes`,
      as(cookie, { body: 'Strong', visibility: 'team', candidate_id: cand.tessTheirs }),
    );
    expect([otherJob.status, otherJob.body.field]).toEqual([400, 'candidate_id']);
    // The other job's hiring manager does not see a note about this job's candidate: no mention for them.
    const unseen = await stack.call(
      'POST',
      `/api/people/${person.tess}/notes`,
      as(cookie, { body: 'Look', visibility: 'team', candidate_id: cand.tessMine, mentions: [users.otherHm.id] }),
    );
    expect([unseen.status, unseen.body.field]).toEqual([400, 'mentions']);
    // A note of no candidate is seen by both hiring managers: they may be mentioned on it.
    const both = await stack.call(
      'POST',
      `/api/people/${person.tess}/notes`,
      as(users.otherHm.cookie, { body: 'Look', visibility: 'team', mentions: [users.hm.id] }),
    );
    expect(both.status, both.text).toBe(201);
    // Another's note they see is not theirs to edit.
    const edit = await stack.call('PATCH', `/api/people/${person.tess}/notes/${note.loose}`, as(cookie, { body: 'Mine now' }));
    expect(edit.status).toBe(403);
  });

  it('a token they made sees what they see', async () => {
    const made = await stack.call('POST', '/api/tokens', as(users.hm.cookie, { name: 'hm', scopes: ['candidates:read'] }));
    expect(made.status, made.text).toBe(201);
    const token = made.body.data.token;
    const got = await stack.call('GET', `/api/v1/people/${person.tess}`, { token });
    expect(got.body.data.candidates.map((c: { id: string }) => c.id)).toEqual([cand.tessMine]);
    expect((await stack.call('GET', `/api/v1/people/${person.hugo}`, { token })).status).toBe(404);
    expect((await stack.call('GET', `/api/v1/people/${person.hugo}/files`, { token })).status).toBe(404);
  });

  it("the person read costs one Query and one GetItem per requisition more than a recruiter's", async () => {
    const count = async (cookie: string) => {
      sent.length = 0;
      counting = true;
      const res = await stack.call('GET', `/api/people/${person.tess}`, as(cookie));
      counting = false;
      expect(res.status, res.text).toBe(200);
      return [...sent].sort();
    };
    const AUTH = 'GetItemCommand';
    expect(await count(users.recruiter.cookie)).toEqual([AUTH, 'GetItemCommand', 'QueryCommand'].sort());
    expect(await count(users.hm.cookie)).toEqual([AUTH, 'GetItemCommand', 'QueryCommand', 'GetItemCommand', 'GetItemCommand'].sort());
  });
});

describe('an interviewer sees the people they are assigned to interview: none until interviews exist', () => {
  it('every read of a person is a 404', async () => {
    const { cookie } = users.interviewer;
    for (const path of [
      `/api/people/${person.tess}`,
      `/api/people/${person.tess}/notes`,
      `/api/people/${person.tess}/notes/${note.loose}`,
      `/api/people/${person.tess}/activity`,
      `/api/people/${person.tess}/files`,
      `/api/people/${person.tess}/files/${file.tess}`,
    ])
      expect((await stack.call('GET', path, as(cookie))).status, path).toBe(404);
    // Writing a note stays out of their role.
    const written = await stack.call('POST', `/api/people/${person.tess}/notes`, as(cookie, { body: 'Hi', visibility: 'team' }));
    expect(written.status).toBe(403);
  });
});
