/**
 * lib/email against the local SES (aws-ses-v2-local, dev/ses.ts, in this process on 127.0.0.1):
 * a message with text, HTML and a calendar invitation arrives as sent; malformed messages are
 * refused before SES; and an SES error never carries a recipient out.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LocalSes, sentMail, startLocalSes } from '../../dev/ses';

let ses: LocalSes;
let email: typeof import('../../lib/email/send');
const saved = { MAIL_FROM: process.env.MAIL_FROM, SES_ENDPOINT: process.env.SES_ENDPOINT };

beforeAll(async () => {
  ses = await startLocalSes();
  process.env.MAIL_FROM = 'Talent Pipeline <no-reply@talent.example>';
  process.env.SES_ENDPOINT = ses.endpoint;
  vi.resetModules();
  email = await import('../../lib/email/send');
});

afterAll(async () => {
  await ses?.stop();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  vi.resetModules();
});

const ICS =
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:i-1@talent.example\r\nSEQUENCE:0\r\nDTSTART:20300101T090000Z\r\nDTEND:20300101T100000Z\r\nSUMMARY:Interview\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

describe('sendEmail', () => {
  it('sends text, HTML and an invitation; the local SES keeps exactly that', async () => {
    const { messageId } = await email.sendEmail({
      to: ['ada@example.com'],
      subject: 'Your interview on 1 January',
      text: 'See you then.',
      html: '<p>See you then.</p>',
      attachments: [{ filename: 'invite.ics', contentType: 'text/calendar; method=REQUEST; charset=UTF-8', content: ICS }],
      tags: { kind: 'interview_invite' },
    });
    expect(messageId).toBeTruthy();
    const mail = (await sentMail(ses.endpoint)).find((m) => m.messageId === messageId)!;
    expect(mail).toMatchObject({
      from: 'Talent Pipeline <no-reply@talent.example>',
      destination: { to: ['ada@example.com'] },
      subject: 'Your interview on 1 January',
      body: { text: 'See you then.', html: '<p>See you then.</p>' },
    });
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: 'invite.ics', contentType: 'text/calendar; method=REQUEST; charset=UTF-8' });
    expect(Buffer.from(mail.attachments[0]!.content, 'base64').toString('utf8')).toBe(ICS);
  });

  it('never forwards to a real mail server, whatever SMTP_TRANSPORT says', async () => {
    process.env.SMTP_TRANSPORT = '{"host":"smtp.example.com"}';
    const other = await startLocalSes();
    try {
      expect(process.env.SMTP_TRANSPORT).toBeUndefined();
    } finally {
      await other.stop();
      delete process.env.SMTP_TRANSPORT;
    }
  });

  it('the viewer page is served where the banner says', async () => {
    const page = await fetch(ses.viewerUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  it.each([
    ['no recipient', { to: [] }, /recipients/],
    ['51 recipients', { to: Array.from({ length: 51 }, (_, i) => `p${i}@example.com`) }, /recipients/],
    ['a recipient that is not an address', { to: ['ada@example.com>, eve@evil.example'] }, /not an email address/],
    ['a subject with a line break (header injection)', { subject: 'Hi\r\nBcc: eve@evil.example' }, /one non-empty line/],
    [
      'an attachment named with a path',
      { attachments: [{ filename: '../x.ics', contentType: 'text/calendar', content: 'x' }] },
      /plain words/,
    ],
    [
      'a message over 10 MB',
      { attachments: [{ filename: 'big.bin', contentType: 'application/octet-stream', content: new Uint8Array(8 * 1024 * 1024) }] },
      /larger/,
    ],
  ])('refuses %s before SES, naming no value', async (_what, over, message) => {
    const mail = { to: ['ada@example.com'], subject: 'Hello', text: 't', html: '<p>t</p>', ...over };
    const err = await email.sendEmail(mail as never).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toMatch(/ada@|eve@/);
  });

  it('an SES refusal is rethrown without its message, which can quote the recipient', async () => {
    const reject = () => async () => {
      throw Object.assign(new Error('Email address is not verified. The following identities failed the check: ada@example.com'), {
        name: 'MessageRejected',
      });
    };
    email.ses().middlewareStack.add(reject, { step: 'initialize', name: 'testReject' });
    try {
      const err = (await email.sendEmail({ to: ['ada@example.com'], subject: 'Hi', text: 't', html: 't' }).catch((e) => e)) as Error;
      expect(err).toBeInstanceOf(email.EmailError);
      expect(err.message).toBe('SES refused the message (MessageRejected)');
      expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain('ada@example.com');
    } finally {
      email.ses().middlewareStack.remove('testReject');
    }
  });
});
