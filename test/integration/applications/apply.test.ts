/**
 * Applying through the public route and the queue: a 202 for a valid application and a candidate
 * in `applied` from the worker, with its source and answers; every check answered with `field`;
 * one 404 for every job that is not public; no duplicate for the same email on the same job,
 * through the queue and in a race; posts from any site, with CORS on every answer.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runApplication } from '../../../lib/domain/application-run';
import { FORM_MIN_MS, issueFormToken } from '../../../lib/domain/form-token';
import { getCandidate } from '../../../lib/store/candidates';
import { newId } from '../../../lib/ids';
import { startStack, type Stack, type TestTenant } from '../../helpers/stack';
import { until } from '../../helpers/until';
import { candidatesOfEmail } from './queue';

let stack: Stack;
let tenant: TestTenant;
let token: string;
let sqs: SQSClient;

beforeAll(async () => {
  stack = await startStack({ imports: true });
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  sqs = new SQSClient({ endpoint: process.env.SQS_ENDPOINT, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
});
afterAll(async () => {
  sqs.destroy();
  await stack.close();
});

const posting = {
  published: true,
  description: 'We build pipelines.',
  remote: 'no',
  questions: [
    { id: 'eu_work', type: 'yes_no', label: 'Are you authorised to work in the EU?', required: true },
    { id: 'years', type: 'number', label: 'Years of TypeScript', required: false },
  ],
  rules: [{ question_id: 'eu_work', op: 'eq', value: false }],
  outcome: { on_pass: 'stay', on_fail: 'flag' },
};

async function publishedJob(body: Record<string, unknown> = posting): Promise<string> {
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Platform Engineer' } });
  const id = req.body.data.id as string;
  const put = await stack.call('PUT', `/api/v1/requisitions/${id}/posting`, { token, body });
  expect(put.status).toBe(200);
  return id;
}

const application = (over: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: `ada-${newId().slice(-12)}@example.com`,
  answers: { eu_work: true, years: 5 },
  consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-01' },
  ...over,
});

/** A form token as the job read hands out, read long enough ago for a person to have filled the form. */
const tokenFor = (slug: string, jobId: string) => issueFormToken(process.env.FORM_TOKEN_SECRET!, slug, jobId, Date.now() - FORM_MIN_MS);

const apply = (jobId: string, body: Record<string, unknown>, slug = tenant.slug, headers: Record<string, string> = {}) =>
  stack.call('POST', `/api/boards/${slug}/jobs/${jobId}/applications`, { body: { form_token: tokenFor(slug, jobId), ...body }, headers });

const candidatesOf = (email: string) => candidatesOfEmail(sqs, tenant.id, email);

describe('POST /api/boards/{slug}/jobs/{id}/applications', () => {
  it('answers 202 and the worker makes the candidate in applied, with its source and answers', async () => {
    const job = await publishedJob();
    const body = application({ phone: '+49 30 1234', source: 'linkedin' });
    const res = await apply(job, body);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ data: { status: 'received' } });
    const [c] = await until('the candidate', async () => {
      const found = await candidatesOf(body.email as string);
      return found.length ? found : undefined;
    });
    const item = (await getCandidate(tenant.id, c!.id))!;
    expect(item).toMatchObject({
      name: 'Ada Lovelace',
      email: body.email,
      phone: '+49 30 1234',
      stage: 'applied',
      req_id: job,
      source: 'linkedin',
    });
    expect(JSON.parse(item.application as string)).toEqual({
      answers: { eu_work: true, years: 5 },
      consent: body.consent,
      received_at: expect.any(String),
    });
    // The candidate's own read answers the source and the answers; the list never the answers.
    const read = await stack.call('GET', `/api/v1/candidates/${c!.id}`, { token });
    expect(read.body.data.source).toBe('linkedin');
    expect(read.body.data.application).toEqual({
      answers: { eu_work: true, years: 5 },
      consent: body.consent,
      received_at: JSON.parse(item.application as string).received_at,
    });
    const list = await stack.call('GET', `/api/v1/candidates?req_id=${job}`, { token });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([c!.id]);
    expect(list.body.data[0].source).toBe('linkedin');
    expect(list.body.data[0]).not.toHaveProperty('application');
  });

  it('erasure reaches the answers and consent', async () => {
    const job = await publishedJob();
    const body = application();
    expect((await apply(job, body)).status).toBe(202);
    const [c] = await candidatesOf(body.email as string);
    expect((await getCandidate(tenant.id, c!.id))!.application).toEqual(expect.any(String));
    const erased = await stack.call('POST', `/api/v1/candidates/${c!.id}/erase`, { token });
    expect(erased.status).toBe(200);
    const item = (await getCandidate(tenant.id, c!.id))!;
    expect(item.erased_at).toEqual(expect.any(String));
    expect(item).not.toHaveProperty('application');
    expect(JSON.stringify(item)).not.toContain('privacy notice');
    expect((await stack.call('GET', `/api/v1/candidates/${c!.id}`, { token })).body.data.application).toBeNull();
  });

  it('gives an application without a source the careers source', async () => {
    const job = await publishedJob();
    const body = application();
    expect((await apply(job, body)).status).toBe(202);
    const [c] = await candidatesOf(body.email as string);
    expect((await getCandidate(tenant.id, c!.id))!.source).toBe('careers');
  });

  it('names the field of each failure', async () => {
    const job = await publishedJob();
    const cases: [Record<string, unknown>, string][] = [
      [{ answers: { years: 5 } }, 'answers.eu_work'],
      [{ answers: { eu_work: 'maybe' } }, 'answers.eu_work'],
      [{ answers: { eu_work: true, salary: 1 } }, 'answers.salary'],
      [{ consent: { accepted: false, text: 'x', version: '1' } }, 'consent.accepted'],
      [{ email: 'not an email' }, 'email'],
      [{ name: ' ' }, 'name'],
      [{ source: 'Not A Tag!' }, 'source'],
    ];
    for (const [over, field] of cases) {
      const res = await apply(job, application(over));
      expect(res.status, field).toBe(400);
      expect(res.body, field).toMatchObject({ code: expect.any(String), field });
    }
  });

  it('answers one 404 for an unknown slug, another workspace, an unpublished posting and a job on hold', async () => {
    const job = await publishedJob();
    const other = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Unposted' } });
    const held = await publishedJob();
    const hold = await stack.call('POST', `/api/v1/requisitions/${held}/status`, { token, body: { status: 'on_hold', reason: 'budget' } });
    expect(hold.status).toBe(200);
    const unpublished = await publishedJob({ ...posting, published: false });
    const elsewhere = await stack.tenant();
    const answers = [
      await apply(job, application(), 'no-such-board'),
      await apply(job, application(), elsewhere.slug),
      await apply(other.body.data.id, application()),
      await apply(held, application()),
      await apply(unpublished, application()),
    ];
    for (const [i, res] of answers.entries()) {
      expect(res.status, `case ${i}`).toBe(404);
      expect(res.body).toEqual(answers[0]!.body);
    }
  });

  it('takes a post from any site and answers CORS on success and error', async () => {
    const job = await publishedJob();
    const headers = { Origin: 'https://jobs.example.org', 'Sec-Fetch-Site': 'cross-site' };
    const ok = await apply(job, application(), tenant.slug, headers);
    expect(ok.status).toBe(202);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const bad = await apply(job, application({ answers: {} }), tenant.slug, headers);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('bots', () => {
  it('a filled honeypot is answered as any post, counted, and never becomes a candidate; an empty one is a person', async () => {
    const job = await publishedJob();
    const bot = application({ website: 'https://spam.example' });
    const person = application({ website: '' });
    // emitMetric writes each metric through its own single-metric instance.
    const added = vi.spyOn(Metrics.prototype, 'addMetric');
    const dimensions = vi.spyOn(Metrics.prototype, 'addDimensions');
    try {
      const botAnswer = await apply(job, bot);
      expect([botAnswer.status, botAnswer.body]).toEqual([202, { data: { status: 'received' } }]);
      expect((await apply(job, person)).status).toBe(202);
      const refused = added.mock.calls.filter(([name]) => name === 'ApplicationsRefused');
      expect(refused).toEqual([['ApplicationsRefused', 'Count', 1]]);
      expect(dimensions).toHaveBeenCalledWith({ reason: 'honeypot' });
    } finally {
      added.mockRestore();
      dimensions.mockRestore();
    }
    // Its answer to a bad post is the same post's without the trap: it learns nothing.
    expect((await apply(job, { ...bot, answers: {} })).body).toMatchObject({ field: 'answers.eu_work' });
    expect(await candidatesOf(bot.email as string)).toHaveLength(0);
    expect(await candidatesOf(person.email as string)).toHaveLength(1);
    expect(stack.logs.join('\n')).not.toContain(bot.email as string);
  });
});

describe('no duplicates', () => {
  it('the same email on the same job again answers the same 202 and adds nothing', async () => {
    const job = await publishedJob();
    const body = application();
    const first = await apply(job, body);
    expect((await candidatesOf(body.email as string)).length).toBe(1);
    const again = await apply(job, { ...body, name: 'Someone Else' });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    const after = await candidatesOf(body.email as string);
    expect(after.length).toBe(1);
    expect((await getCandidate(tenant.id, after[0]!.id))!.name).toBe('Ada Lovelace');
  });

  it('applications of one email in a race leave exactly one candidate', async () => {
    const job = await publishedJob();
    const email = `race-${newId().slice(-12)}@example.com`;
    const message = () => ({
      v: 1 as const,
      kind: 'application' as const,
      tenantId: tenant.id,
      reqId: job,
      applicationId: newId(),
      receivedAt: new Date().toISOString(),
      name: 'Grace Hopper',
      email,
      answers: { eu_work: true },
      consent: { accepted: true as const, text: 'ok', version: '1' },
      source: 'careers',
    });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => runApplication(message())));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(5);
    expect(await candidatesOf(email)).toHaveLength(1);
  });

  it('the same message delivered twice makes one candidate', async () => {
    const job = await publishedJob();
    const m = {
      v: 1 as const,
      kind: 'application' as const,
      tenantId: tenant.id,
      reqId: job,
      applicationId: newId(),
      receivedAt: new Date().toISOString(),
      name: 'Alan Turing',
      email: `alan-${newId().slice(-12)}@example.com`,
      answers: { eu_work: true },
      consent: { accepted: true as const, text: 'ok', version: '1' },
      source: 'careers',
    };
    expect(await runApplication(m)).toBe('created');
    expect(await runApplication(m)).toBe('duplicate');
    expect(await candidatesOf(m.email)).toHaveLength(1);
  });
});
