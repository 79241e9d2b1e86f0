/**
 * The local S3 and SES of `npm start` (dev/s3.ts, dev/ses.ts), started together and handed to the
 * functions through the variables lib/config.ts reads, as the stack hands them the bucket and
 * the sender. Both run inside the runtime's process, so the one stop of `npm start` (any signal,
 * or its parent going away) stops them too: nothing is left running.
 */
import { join } from 'node:path';
import { type LocalS3, startLocalS3 } from './s3';
import { type LocalSes, startLocalSes } from './ses';

/** The sender of local mail: a name under .localhost, which no one can receive. */
export const LOCAL_MAIL_FROM = 'Talent Pipeline <no-reply@talent-pipeline.localhost>';

export interface FilesAndMail {
  s3: LocalS3;
  ses: LocalSes;
  stop(): Promise<void>;
}

/** A port from the environment (`S3_PORT`, `SES_PORT`): unset is a free one; anything but a port number is refused. */
export function portFromEnv(name: 'S3_PORT' | 'SES_PORT'): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number, got "${raw}"`);
  return port;
}

/** `dir` is the data directory: the objects go to `<dir>/s3`, beside the table's files. */
export async function startFilesAndMail(dir: string, ports: { s3?: number; ses?: number } = {}): Promise<FilesAndMail> {
  const s3 = await startLocalS3({ directory: join(dir, 's3'), port: ports.s3 });
  let ses: LocalSes;
  try {
    ses = await startLocalSes({ port: ports.ses });
  } catch (err) {
    await s3.stop();
    throw err;
  }
  process.env.FILES_BUCKET = s3.bucket;
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.SES_ENDPOINT = ses.endpoint;
  process.env.MAIL_FROM ??= LOCAL_MAIL_FROM;
  return { s3, ses, stop: async () => void (await Promise.all([s3.stop(), ses.stop()])) };
}
