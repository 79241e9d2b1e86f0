/**
 * The applicant's confirmation through the real path, as `npm start` runs it: the application is
 * queued, the worker makes the candidate, the stream's fan-out queues the confirmation, the mail
 * worker sends it through the local SES (dev/ses.ts, read back from its store). Its withdraw link
 * shows a confirm form (changing nothing), the form's post withdraws the application and erases
 * the person (a full Scan finds nothing of them), audited by the actor `applicant`; a second use
 * changes nothing and says so; a forged, foreign or altered link answers the one neutral page. A
 * duplicate application mails nothing.
 */
import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MAIL_FROM } from '../../../dev/files-and-mail';
import { type LocalSes, sentMail, startLocalSes, type StoredMail } from '../../../dev/ses';
import { CAREERS_CSP } from '../../../lib/careers/page';
import { FORM_MIN_MS, issueFormToken } from '../../../lib/domain/form-token';
import { issueWithdrawToken } from '../../../lib/domain/withdraw-token';
import { getCandidate } from '../../../lib/store/candidates';
import { queryStageMoves } from '../../../lib/store/stage-history';
import { settleAudit } from '../../helpers/audit';
import { scanTable } from '../../helpers/scan';
import { PASSWORD, startStack, type Stack, type TestTenant } from '../../helpers/stack';
import { until } from '../../helpers/until';
import { importQueueDrained } from './queue';

let ses: LocalSes;
let stack: Stack;
let tenant: TestTenant;
let token: string;
let job: string;
let sqs: SQSClient;

beforeAll(async () => {
  ses = await startLocalSes();
  // What npm start gives its functions (dev/files-and-mail.ts, dev/start.ts), before the pipeline loads them.
  process.env.SES_ENDPOINT = ses.endpoint;
  process.env.MAIL_FROM = LOCAL_MAIL_FROM;
  stack = await startStack({ webhooks: {}, imports: true });
  // The careers site's origin: here the local gateway itself.
  process.env.CONSOLE_URL = stack.url;
  sqs = new SQSClient({ endpoint: process.env.SQS_ENDPOINT, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  tenant = await stack.tenant();
  token = await tenant.token(['*']);
  const req = await stack.call('POST', '/api/v1/requisitions', { token, body: { title: 'Platform Engineer' } });
  job = req.body.data.id as string;
  const put = await stack.call('PUT', `/api/v1/requisitions/${job}/posting`, {
    token,
    body: { published: true, description: 'We build pipelines.', remote: 'no' },
  });
  expect(put.status, put.text).toBe(200);
}, 120_000);
afterAll(async () => {
  sqs?.destroy();
  await stack?.close();
  await ses?.stop();
  for (const k of ['SES_ENDPOINT', 'MAIL_FROM', 'CONSOLE_URL']) delete process.env[k];
});

const queueDrained = () => importQueueDrained(sqs);

const tag = () => randomUUID().replace(/-/g, '').slice(0, 12);

async function apply(email: string, name: string) {
  const res = await stack.call('POST', `/api/boards/${tenant.slug}/jobs/${job}/applications`, {
    body: {
      name,
      email,
      answers: {},
      consent: { accepted: true, text: 'I have read the privacy notice.', version: '2026-01' },
      form_token: issueFormToken(process.env.FORM_TOKEN_SECRET!, tenant.slug, job, Date.now() - FORM_MIN_MS),
    },
  });
  expect(res.status, res.text).toBe(202);
}

const mailTo = async (email: string) => (await sentMail(ses.endpoint)).filter((m) => m.destination.to.includes(email));
const firstMailTo = (email: string) =>
  until(`the confirmation to ${email}`, async () => (await mailTo(email))[0], 30_000) as Promise<StoredMail>;
const linkOf = (m: StoredMail) => /https?:\/\/\S+\/withdraw\?t=[\w.%-]+/.exec(m.body.text ?? '')?.[0];
const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('t')!);

const postForm = (slug: string, t: string) =>
  fetch(`${stack.url}/careers/${slug}/withdraw`, {
    method: 'POST',
    // What a browser sends from the confirm page, which is served with no-referrer: Origin null.
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', Origin: 'null', 'Sec-Fetch-Site': 'same-origin' },
    body: new URLSearchParams({ t }).toString(),
  });

describe('the confirmation email and its withdraw link', () => {
  it('mails the job and workspace with a link; the link confirms, withdraws and erases once', async () => {
    const mark = tag();
    const email = `ada-${mark}@apply.example.org`;
    const name = `Ada Withdraws ${mark}`;
    await apply(email, name);
    const mail = await firstMailTo(email);
    expect(mail.subject).toMatch(/^Your application for Platform Engineer at \S/);
    expect(`${mail.body.text}${mail.body.html}`).not.toContain(name);
    const link = linkOf(mail)!;
    expect(link.startsWith(`${stack.url}/careers/${tenant.slug}/withdraw?t=w1.`)).toBe(true);
    // The link names nothing but its token.
    expect(link).not.toContain(mark);
    const candidateId = (await until('the candidate', async () => {
      const items = await scanTable({
        FilterExpression: '#type = :c AND email = :e',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':c': 'candidate', ':e': email },
      });
      return items[0]?.id as string | undefined;
    })) as string;

    // Reading the page changes nothing (a mail scanner follows links): a form to confirm.
    const page = await fetch(link);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CAREERS_CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(html).toContain('Platform Engineer');
    expect(html).toContain(`<form method="post" action="/careers/${tenant.slug}/withdraw">`);
    expect(html).not.toContain('<script');
    expect((await getCandidate(tenant.id, candidateId))!.stage).toBe('applied');

    const done = await postForm(tenant.slug, tokenOf(link));
    expect([done.status, done.headers.get('cache-control')]).toEqual([200, 'no-store']);
    expect(await done.text()).toContain('Application withdrawn');

    const after = (await getCandidate(tenant.id, candidateId))!;
    expect(after.stage).toBe('rejected');
    expect(after.erased_at).toEqual(expect.any(String));
    expect(after.rejection).toMatchObject({ reason_id: 'withdrawn', type: 'candidate_withdrew' });
    const moves = await queryStageMoves(tenant.id, candidateId);
    expect(moves.at(-1)).toMatchObject({ from_stage: 'applied', to_stage: 'rejected', actor: { type: 'system', id: 'applicant' } });
    // Nothing of the person is left in any item of the table.
    const everything = JSON.stringify(await scanTable());
    expect(everything).not.toContain(mark);

    await settleAudit();
    const admin = await tenant.user('admin');
    const cookie = await stack.login(admin.email, PASSWORD);
    const log = await stack.call('GET', '/api/audit?action=candidate.erased&limit=100', { headers: { Cookie: cookie } });
    expect(log.status, log.text).toBe(200);
    const erased = (log.body.data as { actor: { type: string; id: string }; target: { id: string } }[]).filter(
      (r) => r.target.id === candidateId,
    );
    expect(erased.map((r) => r.actor)).toEqual([expect.objectContaining({ type: 'system', id: 'applicant' })]);

    // Used once: the second post and the page both say it was done, and change nothing.
    const receipt = after.erasure as { actor: unknown } | undefined;
    expect(receipt?.actor).toEqual({ type: 'applicant' });
    const again = await postForm(tenant.slug, tokenOf(link));
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('already withdrawn');
    const reread = await fetch(link);
    expect([reread.status, (await reread.text()).includes('already withdrawn')]).toEqual([200, true]);
    expect((await getCandidate(tenant.id, candidateId))!.erasure).toEqual(receipt);
  });

  it('a forged, foreign, altered or missing token answers the one neutral page and changes nothing', async () => {
    const mark = tag();
    const email = `grace-${mark}@apply.example.org`;
    await apply(email, `Grace Stays ${mark}`);
    const link = linkOf(await firstMailTo(email))!;
    const t = tokenOf(link);
    const other = await stack.tenant();
    const [, packed, expires] = t.split('.');
    const tries: [string, string][] = [
      [tenant.slug, 'w1.forged.0.x'],
      // The same candidate, signed with another key.
      [tenant.slug, issueWithdrawToken('not the key', tenant.slug, randomUUID(), Date.now())],
      // This workspace's token on another workspace's page.
      [other.slug, t],
      // A later expiry under the old signature.
      [tenant.slug, `w1.${packed}.${(Number.parseInt(expires!, 36) + 1).toString(36)}.${t.split('.')[3]}`],
      [tenant.slug, ''],
    ];
    const pages = new Set<string>();
    for (const [slug, bad] of tries) {
      const res = await postForm(slug, bad);
      expect(res.status, `${slug} ${bad}`).toBe(404);
      pages.add(await res.text());
      const view = await fetch(`${stack.url}/careers/${slug}/withdraw?t=${encodeURIComponent(bad)}`);
      expect(view.status).toBe(404);
      pages.add(await view.text());
    }
    expect(pages.size).toBe(1);
    expect([...pages][0]).toContain('This link does not work');
    const still = await scanTable({
      FilterExpression: '#type = :c AND email = :e',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':c': 'candidate', ':e': email },
    });
    expect(still.map((c) => [c.stage, c.erased_at])).toEqual([['applied', undefined]]);
  });

  it('a duplicate application mails nothing: the address gets its one confirmation', async () => {
    const mark = tag();
    const email = `linus-${mark}@apply.example.org`;
    await apply(email, `Linus Twice ${mark}`);
    await firstMailTo(email);
    await apply(email, `Linus Twice ${mark}`);
    // The duplicate has been through the worker (and written nothing) before the next application is sent.
    await until('the import queue drained', queueDrained);
    const later = `later-${mark}@apply.example.org`;
    await apply(later, `Later ${mark}`);
    await firstMailTo(later);
    expect(await mailTo(email)).toHaveLength(1);
  });
});
