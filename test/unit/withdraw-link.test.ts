/**
 * The applicant's confirmation: the withdraw token (signed, bound to its board and candidate,
 * expiring, never taken for a form token), the mail's words (the job and the workspace, the link,
 * no one's name) and the change that queues it (an application's candidate inserted, nothing else).
 */
import { describe, expect, it } from 'vitest';
import { confirmationMail } from '../../lib/domain/application-confirmation-rules';
import { checkFormToken } from '../../lib/domain/form-token';
import { checkWithdrawToken, issueWithdrawToken, WITHDRAW_TOKEN_TTL_MS } from '../../lib/domain/withdraw-token';
import { confirmationOf } from '../../lib/invitations/queue';

const SECRET = 'unit-secret';
const ID = '0190f3a8-7b2c-7d4e-8f00-123456789abc';
const NOW = Date.UTC(2026, 10, 27, 12);

describe('withdraw token', () => {
  const token = issueWithdrawToken(SECRET, 'acme', ID, NOW);

  it('names the candidate and nothing else readable, and checks back to it', () => {
    expect(token).toMatch(/^w1\.[\w-]{22}\.[0-9a-z]+\.[\w-]{43}$/);
    expect(token).not.toContain(ID);
    expect(token).not.toContain('acme');
    expect(checkWithdrawToken(SECRET, 'acme', token, NOW + 1000)).toEqual({ ok: true, candidateId: ID });
  });

  it('works until its expiry and not a millisecond after', () => {
    expect(checkWithdrawToken(SECRET, 'acme', token, NOW + WITHDRAW_TOKEN_TTL_MS).ok).toBe(true);
    expect(checkWithdrawToken(SECRET, 'acme', token, NOW + WITHDRAW_TOKEN_TTL_MS + 1)).toEqual({ ok: false, why: 'expired_token' });
  });

  it('holds only on its own board, with its own key, unaltered', () => {
    expect(checkWithdrawToken(SECRET, 'other', token, NOW)).toEqual({ ok: false, why: 'bad_token' });
    expect(checkWithdrawToken('another-secret', 'acme', token, NOW)).toEqual({ ok: false, why: 'bad_token' });
    const [v, , exp, sig] = token.split('.');
    const otherId = issueWithdrawToken(SECRET, 'acme', '0190f3a8-7b2c-7d4e-8f00-000000000000', NOW).split('.')[1];
    expect(checkWithdrawToken(SECRET, 'acme', [v, otherId, exp, sig].join('.'), NOW).ok).toBe(false);
    // A later expiry with the old signature.
    expect(checkWithdrawToken(SECRET, 'acme', [v, token.split('.')[1], (NOW * 2).toString(36), sig].join('.'), NOW).ok).toBe(false);
    for (const bad of ['', 'w1', `${token}.x`, token.replace(/^w1/, 'v1'), 'w1.short.1.sig']) {
      expect(checkWithdrawToken(SECRET, 'acme', bad, NOW), bad).toEqual({ ok: false, why: 'bad_token' });
    }
  });

  it('is never an application form token, whatever it is signed with', () => {
    expect(checkFormToken(SECRET, 'acme', ID, token, NOW + 10_000)).toBe('bad_token');
  });
});

describe('confirmation mail', () => {
  const mail = confirmationMail({
    to: 'applicant@example.org',
    jobTitle: 'Platform <Engineer>\r\nBcc: x@evil.example',
    workspace: 'Acme & Co',
    withdrawUrl: 'https://jobs.example/careers/acme/withdraw?t=w1.abc',
    withdrawUntil: '2027-02-25T12:00:00.000Z',
  });

  it('says the job and the workspace in one subject line, and carries the link in both bodies', () => {
    expect(mail.to).toEqual(['applicant@example.org']);
    expect(mail.subject).toBe('Your application for Platform <Engineer> Bcc: x@evil.example at Acme & Co');
    expect(mail.text).toContain('https://jobs.example/careers/acme/withdraw?t=w1.abc');
    expect(mail.text).toContain('2027-02-25');
    expect(mail.html).toContain('href="https://jobs.example/careers/acme/withdraw?t=w1.abc"');
    expect(mail.html).toContain('Platform &#60;Engineer&#62;');
    expect(mail.html).toContain('Acme &#38; Co');
    expect(mail.html).not.toContain('<Engineer>');
    // Neither body addresses anyone by name or repeats the address.
    expect(`${mail.text}${mail.html}`).not.toContain('applicant@example.org');
    expect(mail.tags).toEqual({ kind: 'application_confirmation' });
  });
});

describe('the change that queues a confirmation', () => {
  const insert = (image: Record<string, unknown>, name = 'INSERT') => ({ name, newImage: image }) as never;
  const candidate = { PK: 'T#t1', SK: `CAND#${ID}`, type: 'candidate', id: ID, tenant_id: 't1', email: 'a@example.org' };

  it('is the insert of a candidate an application made: ids only', () => {
    expect(confirmationOf(insert({ ...candidate, application: '{}' }))).toEqual({
      v: 1,
      kind: 'application_confirmation',
      tenantId: 't1',
      candidateId: ID,
    });
  });

  it('is nothing for a candidate made otherwise, a change of one, or another item', () => {
    expect(confirmationOf(insert(candidate))).toBeUndefined();
    expect(confirmationOf(insert({ ...candidate, application: '{}' }, 'MODIFY'))).toBeUndefined();
    expect(confirmationOf(insert({ ...candidate, type: 'note', application: '{}' }))).toBeUndefined();
  });
});
