/**
 * The local SES of `npm start` and the tests: aws-ses-v2-local (an npm package that answers the
 * SES v2 API's SendEmail as SES does and keeps what it was sent), inside this process on
 * 127.0.0.1. Its root page is a mail viewer, and `GET /store` answers the sent mail as JSON. Mail
 * is kept in memory only: a restart empties it. Nothing is ever delivered to anyone.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalSes {
  endpoint: string;
  port: number;
  /** The page where sent mail can be read. */
  viewerUrl: string;
  stop(): Promise<void>;
}

/** A message as `GET /store` answers it (the fields the tests read). */
export interface StoredMail {
  messageId: string;
  from: string;
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  attachments: { content: string; contentType: string; filename: string; size: number }[];
  at: number;
}

/** `port` 0 or unset picks a free one. */
export async function startLocalSes(opts: { port?: number } = {}): Promise<LocalSes> {
  // The package forwards every message to the SMTP server SMTP_TRANSPORT names, when it is set in
  // this process. The local runtime never delivers mail, whatever a developer's shell exports.
  delete process.env.SMTP_TRANSPORT;
  type Start = (c: { port: number; host: string }) => Promise<Server>;
  const mod = (await import('aws-ses-v2-local')) as unknown as { default: unknown };
  // The package is CommonJS with an `exports.default`: under some loaders it arrives one level down.
  const start = (typeof mod.default === 'function' ? mod.default : (mod.default as { default: unknown }).default) as Start;
  const http = await start({ port: opts.port ?? 0, host: '127.0.0.1' });
  const port = (http.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;
  // The package keeps its mail in one store per process, not per server: a second local SES in
  // the same process (a test file after another in one worker) would start with the first one's
  // mail. Each starts empty, as one in a process of its own does.
  const cleared = await fetch(`${endpoint}/clear-store`, { method: 'POST' });
  if (!cleared.ok) throw new Error(`the local SES answered ${cleared.status} for /clear-store`);
  let stopping: Promise<void> | undefined;
  return {
    endpoint,
    port,
    viewerUrl: `${endpoint}/`,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      })),
  };
}

/** The mail the local SES holds (for tests and the bench). */
export async function sentMail(endpoint: string): Promise<StoredMail[]> {
  const res = await fetch(`${endpoint}/store`);
  if (!res.ok) throw new Error(`the local SES answered ${res.status} for /store`);
  return ((await res.json()) as { emails: StoredMail[] }).emails;
}
