/**
 * Erasure reaches every personal field the candidate's declaration names (lib/entities/candidate.ts),
 * wherever the service stores it. Each personal field gets a value unique to this file, made from
 * its kind; the values go through every real route that stores a copy: create and PATCH (each with
 * an Idempotency-Key), moves to `placed`, webhook deliveries to a receiver that echoes the body,
 * an import, and a public application (its answers and consent, made a candidate by the import
 * worker through the queue). The candidates are erased, and a full Scan of the table finds none of
 * the values in any attribute of any item. A field declared personal that some write stores where erasure
 * does not scrub fails here, whatever its name.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FORM_MIN_MS, issueFormToken } from '../../../../lib/domain/form-token';
import { candidate } from '../../../../lib/entities/candidate';
import { offer } from '../../../../lib/entities/offer';
import { type Field, inShape } from '../../../../lib/entity';
import { scanTable } from '../../../helpers/scan';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../../helpers/stack';
import { tlsServers } from '../../../helpers/tls-servers';
import { until as waitUntil } from '../../../helpers/until';

let stack: Stack;
const servers = tlsServers(inject('tls'));
beforeAll(async () => {
  // A receiver in this process answers late on a loaded machine: a long timeout keeps each echoed
  // answer a successful attempt, which is the copy under test.
  stack = await startStack({ webhooks: { allowLoopback: true, timeoutMs: 15_000, retrySchedule: '0,1' }, imports: true });
});
afterAll(async () => {
  await stack?.close();
  await servers.closeAll();
});
const until = <T>(what: string, probe: () => T | Promise<T>) => waitUntil(what, probe, 20_000, 25);

const tag = () => randomUUID().replace(/-/g, '').slice(0, 12);
/**
 * A valid request value of a field's kind that holds `mark` (letters and digits) where a Scan can
 * find it: in every copy, whatever the copy does to case (search tokens are lower case).
 */
function markedValue(f: Field, mark: string): string {
  switch (f.kind) {
    case 'text':
    case 'string':
      return `Erasable ${mark}`;
    case 'email':
      return `${mark}@reach.example.org`;
    case 'url':
      return `https://cv.example.org/${mark}.pdf`;
    case 'phone':
      return `+44 ${mark.replace(/\D/g, '').padEnd(9, '7').slice(0, 9)}`;
    default:
      throw new Error(`no marker value for a personal ${f.kind} field: add one here`);
  }
}
/** The marker of a value: its part a Scan looks for. */
const needleOf = (f: Field, value: string) => (f.kind === 'phone' ? value.slice(4) : value.replace(/^Erasable /, ''));

/** A profile with a fresh value in each of `fields`, and the needles that must not survive. */
function profile(fields: readonly string[] = candidate.personal) {
  const body: Record<string, string> = {};
  const needles: string[] = [];
  for (const n of fields) {
    const f = (candidate.fields as Record<string, Field>)[n]!;
    body[n] = markedValue(f, `${n.replace(/_/g, '')}${tag()}`);
    needles.push(needleOf(f, body[n]!));
  }
  return { body, needles };
}

/** Every item holding one of the needles, with the attribute that holds it. */
async function holders(needles: string[]) {
  const lower = needles.map((n) => n.toLowerCase());
  const found: { type: unknown; PK: unknown; attribute: string }[] = [];
  for (const item of await scanTable({ TableName: stack.tableName })) {
    for (const [attribute, value] of Object.entries(item)) {
      const text = JSON.stringify(value).toLowerCase();
      if (lower.some((n) => text.includes(n))) found.push({ type: item.type, PK: item.PK, attribute });
    }
  }
  return found;
}

/** The events that carry a candidate's data. */
const CANDIDATE_EVENTS = ['candidate.created', 'candidate.updated', 'candidate.stage_changed', 'offer.sent', 'placement.created'];

describe('erasure reaches every personal field the declaration names', () => {
  // The profile (create and PATCH); the others are set by their own routes below.
  const profileFields = candidate.personal.filter((n) => inShape(candidate.fields[n], 'create'));
  const first = profile(profileFields);
  const changed = profile(profileFields);
  // An import file may hold the importable ones.
  const importable = candidate.personal.filter((n) => (candidate.importColumns as readonly string[]).includes(n));
  const imported = profile(importable);
  // A move into rejected keeps its note.
  const rejected = profile(['rejection_note']);
  // A public application: its profile, and its answers and consent (the candidate's `application`).
  const appliedProfile = profile(['name', 'email', 'phone']);
  const appliedAnswers = { why: `Erasable why${tag()}`, story: `Erasable story${tag()}` };
  const appliedConsent = `Erasable consent${tag()}`;
  const needles = [
    ...first.needles,
    ...changed.needles,
    ...imported.needles,
    ...rejected.needles,
    ...appliedProfile.needles,
    ...[...Object.values(appliedAnswers), appliedConsent].map((v) => v.replace(/^Erasable /, '')),
  ];
  it('every personal field is set by one of the routes here', () => {
    // `screening` quotes only answers to questions a rule can judge (yes/no, choices, numbers),
    // whose values the posting itself holds, so no needle can be its alone: the application
    // here writes it, and test/integration/applications/screening.test.ts shows erasure removes it.
    expect(new Set([...profileFields, ...importable, 'rejection_note', 'application', 'screening'])).toEqual(new Set(candidate.personal));
  });
  let token: string;
  let tenant: TestTenant;
  let candidateId: string;
  let importedId: string;
  let appliedId: string;
  const echoed: string[] = [];

  let reqId: string;

  it('stores them through create and PATCH (each idempotent) and moves to placed', async () => {
    tenant = await stack.tenant();
    token = await tenant.token(['*']);
    const rx = await servers.start((_req, res, body) => {
      echoed.push(body.toString('utf8'));
      res.end(body);
    });
    const cookie = await stack.login((await tenant.user('admin')).email, PASSWORD);
    const hook = await stack.call('POST', '/api/webhooks', {
      headers: { Cookie: cookie },
      body: { url: rx.url('/echo'), events: CANDIDATE_EVENTS },
    });
    expect(hook.status, hook.text).toBe(201);
    const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Reach Engineer', headcount: 5 } });
    expect(req.status, req.text).toBe(201);
    reqId = req.body.data.id;

    const created = await stack.call('POST', '/api/v1/candidates', {
      token,
      body: { ...first.body, req_id: reqId },
      headers: { 'Idempotency-Key': `reach-${tag()}` },
    });
    expect(created.status, created.text).toBe(201);
    candidateId = created.body.data.id;
    const patched = await stack.call('PATCH', `/api/v1/candidates/${candidateId}`, {
      token,
      body: changed.body,
      headers: { 'Idempotency-Key': `reach-${tag()}` },
    });
    expect(patched.status, patched.text).toBe(200);
    for (const stage of ['offer_sent', 'placed']) {
      const moved = await stack.call('POST', '/api/v1/pipeline', { token, body: { candidate_id: candidateId, stage } });
      expect(moved.status, moved.text).toBe(200);
    }
  });

  // An offer's personal fields (lib/entities/offer.ts), through its draft, a new version and a rescind.
  const amounts = [Number(`8${String(Date.now()).slice(-5)}.37`), Number(`9${String(Date.now()).slice(-5)}.41`)];
  const offerText = { bonus: `Erasable bonus${tag()}`, equity: `Erasable equity${tag()}`, note: `Erasable note${tag()}` };
  const offerReason = `Erasable reason${tag()}`;
  const approvalComment = `Erasable comment${tag()}`;
  needles.push(
    ...amounts.map(String),
    ...[...Object.values(offerText), offerReason, approvalComment].map((v) => v.replace(/^Erasable /, '')),
  );
  it('every personal field of an offer is set by the offer routes here', () => {
    expect(new Set(['amount', ...Object.keys(offerText), 'reason'])).toEqual(new Set(offer.personal));
  });

  it('and through an offer: drafted, rejected by its approver with a comment, changed (a new version), rescinded, each idempotent', async () => {
    const idem = () => ({ 'Idempotency-Key': `reach-${tag()}` });
    const approver = await tenant.user('admin');
    const approverCookie = await stack.login(approver.email, PASSWORD);
    const chain = await stack.call('PUT', '/api/settings/offer-approvals', {
      headers: { Cookie: approverCookie },
      body: { steps: [{ approvers: [approver.id], mode: 'any' }] },
    });
    expect(chain.status, chain.text).toBe(200);
    const comp = (amount: number) => ({ amount, currency: 'EUR', period: 'year' });
    const made = await stack.call('POST', `/api/v1/candidates/${candidateId}/offers`, {
      token,
      body: { compensation: comp(amounts[0]!), start_date: '2027-01-04', ...offerText },
      headers: idem(),
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    expect((await stack.call('POST', `/api/v1/offers/${id}/status`, { token, body: { status: 'pending_approval' } })).status).toBe(200);
    const rejected = await stack.call('POST', `/api/offers/${id}/approvals`, {
      headers: { Cookie: approverCookie },
      body: { decision: 'reject', comment: approvalComment },
    });
    expect(rejected.body.data?.status, rejected.text).toBe('draft');
    const changed = await stack.call('PATCH', `/api/v1/offers/${id}`, {
      token,
      body: { compensation: comp(amounts[1]!) },
      headers: idem(),
    });
    expect(changed.body.data.version).toBe(2);
    const gone = await stack.call('POST', `/api/v1/offers/${id}/status`, {
      token,
      body: { status: 'rescinded', reason: offerReason },
      headers: idem(),
    });
    expect(gone.status, gone.text).toBe(200);
  });

  it('and through an import', async () => {
    const csv = `${importable.join(',')},req_id\r\n${importable.map((n) => imported.body[n]).join(',')},${reqId}\r\n`;
    const posted = await stack.call('POST', '/api/v1/candidates/imports', { token, rawBody: csv, headers: { 'Content-Type': 'text/csv' } });
    expect(posted.status, posted.text).toBe(202);
    await until('the import done', async () => {
      const job = await stack.call('GET', `/api/v1/candidates/imports/${posted.body.data.id}`, { token });
      return job.body.data.status === 'completed' && job.body.data.counts.created === 1;
    });
    const listed = await stack.call('GET', `/api/v1/candidates?req_id=${reqId}`, { token });
    importedId = listed.body.data.find((c: { id: string }) => c.id !== candidateId).id;
  });

  it('and through a public application, made a candidate by the import worker', async () => {
    const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Reach Applicant' } });
    expect(req.status, req.text).toBe(201);
    const jobId = req.body.data.id as string;
    const posted = await stack.call('PUT', `/api/v1/requisitions/${jobId}/posting`, {
      token,
      body: {
        published: true,
        description: 'Reach the answers.',
        remote: 'no',
        questions: [
          { id: 'why', type: 'short_text', label: 'Why us?', required: true },
          { id: 'story', type: 'long_text', label: 'Tell us a story', required: false },
        ],
        rules: [],
        outcome: { on_pass: 'stay', on_fail: 'flag' },
      },
    });
    expect(posted.status, posted.text).toBe(200);
    const applied = await stack.call('POST', `/api/boards/${tenant.slug}/jobs/${jobId}/applications`, {
      body: {
        ...appliedProfile.body,
        answers: appliedAnswers,
        consent: { accepted: true, text: appliedConsent, version: '2026-01' },
        // As the job read hands it out, issued long enough ago to be taken.
        form_token: issueFormToken(process.env.FORM_TOKEN_SECRET!, tenant.slug, jobId, Date.now() - FORM_MIN_MS),
      },
    });
    expect(applied.status, applied.text).toBe(202);
    appliedId = await until('the applicant a candidate', async () => {
      const listed = await stack.call('GET', `/api/v1/candidates?req_id=${jobId}`, { token });
      return listed.body.data?.[0]?.id as string | undefined;
    });
  });

  // A scorecard's text: its answers and note, in both versions of an edited one.
  const cardText = [1, 2].map(() => ({ answer: `Erasable answer${tag()}`, note: `Erasable note${tag()}` }));
  needles.push(...cardText.flatMap((c) => [c.answer, c.note]).map((v) => v.replace(/^Erasable /, '')));

  it('and through a scorecard, submitted and edited (two versions)', async () => {
    const interviewer = await tenant.user('interviewer');
    const plan = await stack.call('PUT', `/api/v1/requisitions/${reqId}/interview-plan`, {
      token,
      body: {
        steps: [
          {
            name: 'Reach',
            stage: 'interview_scheduled',
            duration_minutes: 30,
            scorecard: { attributes: [{ name: 'Depth' }], questions: ['Why?'] },
          },
        ],
      },
    });
    expect(plan.status, plan.text).toBe(200);
    const iv = await stack.call('POST', `/api/v1/candidates/${importedId}/interviews`, {
      token,
      body: {
        step_id: plan.body.data.steps[0].id,
        start: '2027-03-01T09:00:00Z',
        end: '2027-03-01T09:30:00Z',
        time_zone: 'UTC',
        interviewers: [interviewer.id],
      },
    });
    expect(iv.status, iv.text).toBe(201);
    for (const c of cardText) {
      const card = await stack.call('POST', `/api/v1/interviews/${iv.body.data.id}/scorecards`, {
        token,
        body: {
          interviewer_id: interviewer.id,
          overall: 'yes',
          ratings: [{ attribute: 'Depth', rating: 'yes' }],
          answers: [{ question: 'Why?', answer: c.answer }],
          note: c.note,
        },
      });
      expect(card.status, card.text).toBeLessThan(300);
    }
  });

  it('and through a rejection with a note, and a PATCH (idempotent) whose answer holds it', async () => {
    const moved = await stack.call('POST', '/api/v1/pipeline', {
      token,
      body: { candidate_id: importedId, stage: 'rejected', rejection_reason_id: 'no_response', ...rejected.body },
      headers: { 'Idempotency-Key': `reach-${tag()}` },
    });
    expect(moved.status, moved.text).toBe(200);
    const patched = await stack.call('PATCH', `/api/v1/candidates/${importedId}`, {
      token,
      body: { req_id: null },
      headers: { 'Idempotency-Key': `reach-${tag()}` },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.rejection.note).toBe(rejected.body.rejection_note);
  });

  it('in every kind of copy: candidate, search, idempotency, events, attempts with the echoed body, placement, offer and its versions', async () => {
    // created, updated, two stage changes, offer.sent, placement.created; and the import's candidate.
    await until('the deliveries echoed', () => echoed.length >= 7);
    await until('the attempts logged', async () => {
      const all = await scanTable({
        TableName: stack.tableName,
        FilterExpression: '#t = :t',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':t': 'webhook_attempt' },
      });
      return all.filter((a) => typeof a.response_body === 'string').length >= 7;
    });
    const before = await holders(needles);
    const types = new Set(before.map((h) => (String(h.PK).endsWith('#IDEM') ? 'idempotency' : h.type)));
    for (const t of [
      'candidate',
      'search',
      'idempotency',
      'webhook_event',
      'webhook_attempt',
      'placement',
      'offer',
      'offer_version',
      'offer_approval',
      'scorecard',
      'scorecard_version',
    ])
      expect(types).toContain(t);
    // Each value of each profile is stored somewhere: the Scan below would see it.
    const all = JSON.stringify(await scanTable({ TableName: stack.tableName })).toLowerCase();
    for (const n of needles) expect(all, n).toContain(n.toLowerCase());
  });

  it('leaves none of them in any attribute of any item once the three candidates are erased', async () => {
    for (const id of [candidateId, importedId, appliedId]) {
      const erased = await stack.call('POST', `/api/v1/candidates/${id}/erase`, { token });
      expect(erased.status, erased.text).toBe(200);
    }
    expect(await holders(needles)).toEqual([]);
    // The scorecards keep their recommendation.
    const cards = await stack.call('GET', `/api/v1/candidates/${importedId}/scorecards`, { token });
    expect(cards.body.data.map((c: { overall: string; note: unknown; answers: unknown[] }) => [c.overall, c.note, c.answers])).toEqual([
      ['yes', null, []],
    ]);
  });
});

describe('erasure per person', () => {
  it('erasing one candidate of a person with three erases the person, their claim and all three, in every copy', async () => {
    const tenant = await stack.tenant();
    const tok = await tenant.token(['*']);
    const cookie = await stack.login((await tenant.user('admin')).email, PASSWORD);
    const fields = candidate.personal.filter((n) => inShape(candidate.fields[n], 'create'));
    const mine = profile(fields);
    const reqs: string[] = [];
    for (const title of ['Reach One', 'Reach Two']) {
      const req = await stack.call('POST', '/api/v1/requisitions', { token: tok, body: { title } });
      expect(req.status, req.text).toBe(201);
      reqs.push(req.body.data.id);
    }
    const ids: string[] = [];
    for (const [i, call] of [
      () => stack.call('POST', '/api/v1/candidates', { token: tok, body: { ...mine.body, req_id: reqs[0] } }),
      () => stack.call('POST', '/api/v1/candidates', { token: tok, body: { ...mine.body, req_id: reqs[1] } }),
      () => stack.call('POST', '/api/candidates', { headers: { Cookie: cookie }, body: { ...mine.body } }),
    ].entries()) {
      const res = await call();
      expect(res.status, `${i}: ${res.text}`).toBe(201);
      ids.push(res.body.data.id);
    }
    const personId = (await stack.call('GET', `/api/v1/candidates/${ids[0]}`, { token: tok })).body.data.person_id;
    expect((await holders(mine.needles)).map((h) => h.type)).toEqual(expect.arrayContaining(['person', 'candidate', 'search']));

    // The activity feed's items (one per candidate added) are written by the stream consumer, in
    // the person's partition: the erasure counts them once they are there.
    await until('the feed holds the three additions', async () => {
      const feed = await stack.call('GET', `/api/v1/people/${personId}/activity?limit=100`, { token: tok });
      return feed.body.data?.length === 3;
    });

    const erased = await stack.call('POST', `/api/v1/candidates/${ids[1]}/erase`, { token: tok });
    expect(erased.status, erased.text).toBe(200);
    // The person (holding their three guards), their claim and their partition's three feed items; three candidates.
    expect(erased.body.data.person).toEqual({ id: personId, candidates: 3, items: 5, files: 0 });
    expect(await holders(mine.needles)).toEqual([]);
    for (const id of ids) expect((await stack.call('GET', `/api/v1/candidates/${id}`, { token: tok })).body.data.erased_at).toBeTruthy();
    expect((await stack.call('GET', `/api/v1/people/${personId}`, { token: tok })).status).toBe(404);
    // The email is free again: a new create makes a new person.
    const again = await stack.call('POST', '/api/v1/candidates', { token: tok, body: { name: 'Back Again', email: mine.body.email } });
    expect(again.status, again.text).toBe(201);
    expect(again.body.data.person_id).not.toBe(personId);
  });

  it("reaches the person's notes, their edit history and the mentions they put in members' inboxes", async () => {
    const tenant = await stack.tenant();
    const tok = await tenant.token(['*']);
    const member = await tenant.user('recruiter');
    const created = await stack.call('POST', '/api/v1/candidates', { token: tok, body: profile(['name']).body });
    expect(created.status, created.text).toBe(201);
    const personId = created.body.data.person_id as string;
    const [first, edited] = [`Erasable note${tag()}`, `Erasable edit${tag()}`];
    const note = await stack.call('POST', `/api/v1/people/${personId}/notes`, {
      token: tok,
      body: { body: first, visibility: 'team', mentions: [member.id] },
    });
    expect(note.status, note.text).toBe(201);
    const patched = await stack.call('PATCH', `/api/v1/people/${personId}/notes/${note.body.data.id}`, {
      token: tok,
      body: { body: edited },
    });
    expect(patched.status, patched.text).toBe(200);
    const needles = [first, edited].map((b) => b.replace(/^Erasable /, ''));
    expect(new Set((await holders(needles)).map((h) => h.type))).toEqual(new Set(['note', 'note_version']));
    const ofPerson = async () =>
      (await scanTable({ TableName: stack.tableName })).filter((i) => JSON.stringify(i).includes(personId)).map((i) => i.type);
    expect(await ofPerson()).toContain('mention');

    const erased = await stack.call('POST', `/api/v1/candidates/${created.body.data.id}/erase`, { token: tok });
    expect(erased.status, erased.text).toBe(200);
    expect(await holders(needles)).toEqual([]);
    // Outside the partition too: no inbox item names the person any more.
    expect(await ofPerson()).not.toContain('mention');
  });
});
