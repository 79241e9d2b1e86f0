/**
 * The application's defences against scripts, each shown to stop its case and to let a person
 * through: the signed form token with its minimum time and lifetime (on a fake clock), and the
 * limits per client address and per email, per job and per workspace. A refused post is answered
 * exactly as an accepted one, never queued, and counted in ApplicationsRefused by reason.
 * The queue send is held in the test: what reaches it is what was accepted.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPLICATION_LIMITS } from '../../../lib/domain/application-limits';
import { FORM_MIN_MS, FORM_TOKEN_TTL_MS, issueFormToken } from '../../../lib/domain/form-token';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../../lib/edge-headers';
import { newId } from '../../../lib/ids';
import { holdImportQueueSends } from '../../helpers/held-import-queue';
import { startStack, type Stack, type TestTenant } from '../../helpers/stack';

// As CloudFront fronts the API deployed: the viewer's address is believed next to this secret.
const ORIGIN_SECRET = 'origin-secret-for-this-file';
process.env.ORIGIN_VERIFY = ORIGIN_SECRET;

let stack: Stack;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
});
afterAll(() => stack.close());

const queued = holdImportQueueSends().sent;
let refusals: string[];
beforeEach(() => {
  queued.length = 0;
  refusals = [];
  vi.spyOn(Metrics.prototype, 'addDimensions').mockImplementation(function (this: Metrics, d: Record<string, string>) {
    if (d.reason) refusals.push(d.reason);
    return this;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function publishedJob(): Promise<string> {
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Support Engineer' } });
  const id = req.body.data.id as string;
  const put = await stack.call('PUT', `/api/v1/requisitions/${id}/posting`, {
    token,
    body: { published: true, description: 'Help people.', remote: 'no', questions: [], rules: [] },
  });
  expect(put.status).toBe(200);
  return id;
}

let addressCount = 0;
/** A new client address each call, unless one is given. */
const newAddress = () => `198.51.100.${++addressCount}`;
const newEmail = () => `person-${newId().slice(-12)}@example.com`;

/** A token read long enough ago for a person to have filled the form. */
const readEarlier = (jobId: string) => issueFormToken(process.env.FORM_TOKEN_SECRET!, tenant.slug, jobId, Date.now() - FORM_MIN_MS);

function apply(jobId: string, over: Record<string, unknown> = {}, address = newAddress()) {
  return stack.call('POST', `/api/boards/${tenant.slug}/jobs/${jobId}/applications`, {
    body: {
      name: 'Ada Lovelace',
      email: newEmail(),
      answers: {},
      consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-01' },
      form_token: readEarlier(jobId),
      ...over,
    },
    headers: { [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET, [VIEWER_ADDRESS_HEADER]: address },
  });
}

// The clock is only ever set back: uuid's v7 never goes back from the newest time it has stamped,
// so a clock set ahead would leave every later ID of the worker (its later files share the module)
// in the future, out of the time ranges their queries read.
const DAY = 86_400_000;
const RECEIVED = [202, { data: { status: 'received' } }];
const answer = (res: { status: number; body: unknown }) => [res.status, res.body];

describe('the form token', () => {
  it('the job read hands out a token that admits a post from FORM_MIN_MS after the read, and not a millisecond sooner', async () => {
    const job = await publishedJob();
    vi.useFakeTimers({ toFake: ['Date'] });
    const readAt = Date.now() - DAY;
    vi.setSystemTime(readAt);
    const read = await stack.call('GET', `/api/boards/${tenant.slug}/jobs/${job}`);
    expect(read.status).toBe(200);
    const formToken = read.body.data.form_token as string;
    expect(formToken).toMatch(/^v1\.[0-9a-z]+\.[\w-]+$/);

    vi.setSystemTime(readAt + FORM_MIN_MS - 1);
    expect(answer(await apply(job, { form_token: formToken }))).toEqual(RECEIVED);
    expect(queued).toHaveLength(0);
    expect(refusals).toEqual(['too_fast']);

    vi.setSystemTime(readAt + FORM_MIN_MS);
    expect(answer(await apply(job, { form_token: formToken }))).toEqual(RECEIVED);
    expect(queued).toHaveLength(1);
    expect(refusals).toEqual(['too_fast']);
  });

  it('is good for a day after the read, then refused as expired', async () => {
    const job = await publishedJob();
    vi.useFakeTimers({ toFake: ['Date'] });
    const readAt = Date.now() - FORM_TOKEN_TTL_MS - DAY;
    vi.setSystemTime(readAt);
    const formToken = (await stack.call('GET', `/api/boards/${tenant.slug}/jobs/${job}`)).body.data.form_token as string;

    vi.setSystemTime(readAt + FORM_TOKEN_TTL_MS);
    expect(answer(await apply(job, { form_token: formToken }))).toEqual(RECEIVED);
    expect(queued).toHaveLength(1);
    vi.setSystemTime(readAt + FORM_TOKEN_TTL_MS + 1);
    expect(answer(await apply(job, { form_token: formToken }))).toEqual(RECEIVED);
    expect(queued).toHaveLength(1);
    expect(refusals).toEqual(['expired_token']);
  });

  it('refuses, as a success, a forged token and one read for another job or board', async () => {
    const job = await publishedJob();
    const other = await publishedJob();
    const earlier = Date.now() - FORM_MIN_MS;
    const secret = process.env.FORM_TOKEN_SECRET!;
    const forged = [
      readEarlier(other),
      issueFormToken(secret, 'another-board', job, earlier),
      issueFormToken('not-the-key', tenant.slug, job, earlier),
      readEarlier(job).replace(/\.[0-9a-z]+\./, `.${(earlier - 60_000).toString(36)}.`),
      'v1.0.AAAA',
      'anything',
    ];
    for (const t of forged) expect(answer(await apply(job, { form_token: t })), t).toEqual(RECEIVED);
    expect(queued).toHaveLength(0);
    expect(refusals).toEqual(forged.map(() => 'bad_token'));
  });

  it('a missing token is a 400 naming form_token: an integrator finds out at once', async () => {
    const job = await publishedJob();
    const res = await apply(job, { form_token: undefined });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'form_token', code: expect.any(String) });
  });

  it("the job read's ETag does not change with its token, which does", async () => {
    const job = await publishedJob();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - DAY);
    const first = await stack.call('GET', `/api/boards/${tenant.slug}/jobs/${job}`);
    vi.setSystemTime(Date.now() + 5_000);
    const second = await stack.call('GET', `/api/boards/${tenant.slug}/jobs/${job}`);
    expect(second.body.data.form_token).not.toBe(first.body.data.form_token);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    const revalidated = await stack.call('GET', `/api/boards/${tenant.slug}/jobs/${job}`, {
      headers: { 'If-None-Match': first.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);
  });
});

describe('the limits', () => {
  const limit = (by: string, per: string) => APPLICATION_LIMITS.find((l) => l.by === by && l.per === per)!;

  it(`one address: ${limit('ip', 'job').max} applications to a job, the next refused; another address still applies`, async () => {
    const job = await publishedJob();
    const address = newAddress();
    for (let i = 0; i < limit('ip', 'job').max; i++) expect(answer(await apply(job, {}, address))).toEqual(RECEIVED);
    expect(queued).toHaveLength(limit('ip', 'job').max);
    expect(answer(await apply(job, {}, address))).toEqual(RECEIVED);
    expect(queued).toHaveLength(limit('ip', 'job').max);
    expect(refusals).toEqual(['limit_ip_job']);
    expect(answer(await apply(job))).toEqual(RECEIVED);
    expect(queued).toHaveLength(limit('ip', 'job').max + 1);
  });

  it(`one address: ${limit('ip', 'workspace').max} applications across a workspace's jobs, the next refused`, async () => {
    const perJob = limit('ip', 'job').max;
    const max = limit('ip', 'workspace').max;
    const jobs = await Promise.all(Array.from({ length: Math.ceil(max / perJob) + 1 }, publishedJob));
    const address = newAddress();
    for (let i = 0; i < max; i++) await apply(jobs[Math.floor(i / perJob)]!, {}, address);
    expect(queued).toHaveLength(max);
    expect(answer(await apply(jobs.at(-1)!, {}, address))).toEqual(RECEIVED);
    expect(queued).toHaveLength(max);
    expect(refusals).toEqual(['limit_ip_workspace']);
  });

  it(`one email: ${limit('email', 'job').max} applications to a job, the next refused, from any address`, async () => {
    const job = await publishedJob();
    const email = newEmail();
    for (let i = 0; i < limit('email', 'job').max; i++) await apply(job, { email });
    expect(queued).toHaveLength(limit('email', 'job').max);
    // Another case of the same address counts as the same email.
    expect(answer(await apply(job, { email: email.toUpperCase() }))).toEqual(RECEIVED);
    expect(queued).toHaveLength(limit('email', 'job').max);
    expect(refusals).toEqual(['limit_email_job']);
  });

  it(`one email: ${limit('email', 'workspace').max} applications across a workspace's jobs, the next refused`, async () => {
    const perJob = limit('email', 'job').max;
    const max = limit('email', 'workspace').max;
    const jobs = await Promise.all(Array.from({ length: Math.ceil(max / perJob) + 1 }, publishedJob));
    const email = newEmail();
    for (let i = 0; i < max; i++) await apply(jobs[Math.floor(i / perJob)]!, { email });
    expect(queued).toHaveLength(max);
    expect(answer(await apply(jobs.at(-1)!, { email }))).toEqual(RECEIVED);
    expect(queued).toHaveLength(max);
    expect(refusals).toEqual(['limit_email_workspace']);
  });

  it("a window's count starts again in the next window", async () => {
    const job = await publishedJob();
    const email = newEmail();
    vi.useFakeTimers({ toFake: ['Date'] });
    // Yesterday's midnight (UTC): both sides of it are in the past.
    const midnight = Math.floor(Date.now() / DAY) * DAY - DAY;
    vi.setSystemTime(midnight - 3_600_000);
    for (let i = 0; i <= limit('email', 'job').max; i++) await apply(job, { email });
    expect(queued).toHaveLength(limit('email', 'job').max);
    vi.setSystemTime(midnight + 1_000);
    await apply(job, { email });
    expect(queued).toHaveLength(limit('email', 'job').max + 1);
  });

  it("another workspace's applicants do not count against this one's", async () => {
    const job = await publishedJob();
    const email = newEmail();
    const address = newAddress();
    for (let i = 0; i <= limit('email', 'job').max; i++) await apply(job, { email }, address);
    expect(refusals).toEqual(['limit_email_job']);
    const elsewhere = await stack.tenant();
    const otherToken = await elsewhere.token(['*']);
    const req = await stack.call('POST', '/api/v1/requisitions', { token: otherToken, body: { title: 'Elsewhere' } });
    const otherJob = req.body.data.id as string;
    await stack.call('PUT', `/api/v1/requisitions/${otherJob}/posting`, {
      token: otherToken,
      body: { published: true, description: 'Elsewhere.', remote: 'no', questions: [], rules: [] },
    });
    queued.length = 0;
    const res = await stack.call('POST', `/api/boards/${elsewhere.slug}/jobs/${otherJob}/applications`, {
      body: {
        name: 'Ada Lovelace',
        email,
        consent: { accepted: true, text: 'ok', version: '1' },
        form_token: issueFormToken(process.env.FORM_TOKEN_SECRET!, elsewhere.slug, otherJob, Date.now() - FORM_MIN_MS),
      },
      headers: { [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET, [VIEWER_ADDRESS_HEADER]: address },
    });
    expect(res.status).toBe(202);
    expect(queued).toHaveLength(1);
  });

  it('without the origin secret, the viewer address header is not believed', async () => {
    const job = await publishedJob();
    // Every post names a new viewer address, but without the secret they all count as the socket's.
    const post = () =>
      stack.call('POST', `/api/boards/${tenant.slug}/jobs/${job}/applications`, {
        body: {
          name: 'Ada Lovelace',
          email: newEmail(),
          consent: { accepted: true, text: 'ok', version: '1' },
          form_token: readEarlier(job),
        },
        headers: { [VIEWER_ADDRESS_HEADER]: newAddress() },
      });
    for (let i = 0; i <= limit('ip', 'job').max; i++) await post();
    expect(queued).toHaveLength(limit('ip', 'job').max);
    expect(refusals).toEqual(['limit_ip_job']);
  });
});

describe('CORS preflight', () => {
  it("answers another site's preflight for a JSON post", async () => {
    const res = await stack.call('OPTIONS', `/api/boards/${tenant.slug}/jobs/${newId()}/applications`, {
      headers: {
        Origin: 'https://jobs.example.org',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')?.split(/,\s*/)).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase().split(/,\s*/)).toContain('content-type');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('is answered on the application route alone', async () => {
    const res = await stack.call('OPTIONS', '/api/v1/candidates', { headers: { Origin: 'https://jobs.example.org' } });
    expect(res.status).not.toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
