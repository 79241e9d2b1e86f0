/**
 * Sending email through Amazon SES v2 (deployed) or the local SES of `npm start` (dev/ses.ts):
 * one message, plain text and HTML, with optional attachments (a text/calendar invitation, a
 * receipt). The client is built once per cold start from lib/config.ts; a function that loads
 * this module without MAIL_FROM stops at cold start, naming it.
 *
 * Recipients, subjects and bodies are personal data: nothing here logs them, and an SES error
 * (whose message can quote an address, "Email address is not verified: …") is rethrown as an
 * EmailError carrying only SES's error name.
 */
import { SESv2Client, SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { sdkClientFor } from '../aws/client-for';
import { config, requireSettings } from '../config';

export interface MailAttachment {
  /** Shown to the reader; ids or plain words, never a person's name (it travels in headers). */
  filename: string;
  /** e.g. `text/calendar; method=REQUEST; charset=UTF-8` for an invitation. */
  contentType: string;
  content: Uint8Array | string;
  disposition?: 'attachment' | 'inline';
}

export interface OutgoingMail {
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
  attachments?: readonly MailAttachment[];
  replyTo?: readonly string[];
  /** SES message tags (what sent it, e.g. `{ kind: 'interview_invite' }`): ids and words only. */
  tags?: Readonly<Record<string, string>>;
}

/** SES v2 takes at most 50 recipients per message. */
export const MAX_RECIPIENTS = 50;
/** What a message with its attachments may weigh here: well under SES's own limit, and enough for an invitation or a CV. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** An SES failure, without SES's message (it may quote recipients). `sesError` is SES's error name. */
export class EmailError extends Error {
  override readonly name = 'EmailError';
  constructor(readonly sesError: string) {
    super(`SES refused the message (${sesError})`);
  }
}

// Checked as this module loads: a function that sends mail and was not given a sender stops at cold start.
requireSettings('mailFrom');
export const mailFrom = (): string => config.mailFrom;

export const ses = /* @__PURE__ */ sdkClientFor(
  () => config.sesEndpoint,
  (options) => new SESv2Client(options),
);

const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
/** A header value: no line breaks (header injection), at most 998 characters (RFC 5322). */
const headerSafe = (s: string) => !/[\r\n]/.test(s) && s.length <= 998;

/** The SendEmail input for `mail`; throws (with no personal value in the message) on a malformed one. */
export function sendEmailInput(mail: OutgoingMail): SendEmailCommandInput {
  if (mail.to.length === 0 || mail.to.length > MAX_RECIPIENTS) throw new Error(`a message needs 1 to ${MAX_RECIPIENTS} recipients`);
  for (const a of [...mail.to, ...(mail.replyTo ?? [])]) if (!ADDRESS.test(a)) throw new Error('a recipient is not an email address');
  if (!headerSafe(mail.subject) || mail.subject.trim() === '') throw new Error('the subject must be one non-empty line');
  const enc = new TextEncoder();
  const attachments = (mail.attachments ?? []).map((a) => {
    if (!headerSafe(a.filename) || !/^[\w .()-]{1,100}$/.test(a.filename)) throw new Error('an attachment name must be plain words');
    if (!headerSafe(a.contentType)) throw new Error('an attachment type must be one line');
    return {
      FileName: a.filename,
      ContentType: a.contentType,
      ContentDisposition: a.disposition === 'inline' ? ('INLINE' as const) : ('ATTACHMENT' as const),
      RawContent: typeof a.content === 'string' ? enc.encode(a.content) : a.content,
    };
  });
  const size =
    Buffer.byteLength(mail.text) +
    Buffer.byteLength(mail.html) +
    attachments.reduce((n, a) => n + Math.ceil((a.RawContent.length * 4) / 3), 0);
  if (size > MAX_MESSAGE_BYTES) throw new Error('the message is larger than allowed');
  return {
    FromEmailAddress: mailFrom(),
    Destination: { ToAddresses: [...mail.to] },
    ...(mail.replyTo?.length && { ReplyToAddresses: [...mail.replyTo] }),
    ...(config.sesConfigurationSet && { ConfigurationSetName: config.sesConfigurationSet }),
    ...(mail.tags && { EmailTags: Object.entries(mail.tags).map(([Name, Value]) => ({ Name, Value })) }),
    Content: {
      Simple: {
        Subject: { Data: mail.subject, Charset: 'UTF-8' },
        Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
        ...(attachments.length && { Attachments: attachments }),
      },
    },
  };
}

/** Send one message; answers SES's message id. */
export async function sendEmail(mail: OutgoingMail): Promise<{ messageId: string }> {
  const input = sendEmailInput(mail);
  try {
    const res = await ses().send(new SendEmailCommand(input));
    return { messageId: res.MessageId ?? '' };
  } catch (err) {
    throw new EmailError((err as Error)?.name ?? 'Error');
  }
}
