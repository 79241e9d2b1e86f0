/**
 * The files bucket: the one S3 client (built once per cold start, like the table's), and the
 * object operations the file routes and the worker need. The same code runs against S3 and the
 * local S3 of `npm start` (dev/s3.ts): with S3_ENDPOINT set, the client addresses the bucket by
 * path and signs with the local server's fixed key; otherwise it uses the function's role.
 *
 * A function that loads this module and was not given FILES_BUCKET stops at cold start, naming
 * the variable (lib/config.ts).
 */
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { withoutCallLogging } from '../aws/no-call-logging';
import { config } from '../config';
import { tracer } from '../tracer';
import { attachmentDisposition } from './filename';
import { sha256Of } from './hash';
import { type AllowedContentType, DOWNLOAD_VALID_SECONDS, MAX_UPLOAD_BYTES } from './limits';
import type { LandedObject } from './verify';

// Read as this module loads: a function that touches files and was not given the bucket stops at cold start.
export const filesBucket = config.filesBucket;

export const s3 = withoutCallLogging(
  new S3Client({
    region: config.region,
    ...(config.s3Endpoint && {
      endpoint: config.s3Endpoint,
      forcePathStyle: true,
      // The local S3 knows one fixed key and checks no signature (dev/s3.ts); never reach for real credentials locally.
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }),
  }),
);
tracer.captureAWSv3Client(s3);

const notFound = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404);

/** What S3 holds at `key` (size and stored content type), or undefined when nothing is there. */
export async function headObject(key: string): Promise<LandedObject | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: filesBucket, Key: key }));
    return { size: head.ContentLength, contentType: head.ContentType };
  } catch (err) {
    if (notFound(err)) return undefined;
    throw err;
  }
}

/** The object's bytes, read whole; refuses (throws) past `maxBytes` rather than holding more. */
export async function readObject(key: string, maxBytes = MAX_UPLOAD_BYTES): Promise<Uint8Array> {
  const res = await s3.send(new GetObjectCommand({ Bucket: filesBucket, Key: key }));
  if (res.ContentLength !== undefined && res.ContentLength > maxBytes) {
    (res.Body as { destroy?: () => void } | undefined)?.destroy?.();
    throw new Error('the object is larger than allowed');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.Body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw new Error('the object is larger than allowed');
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

/** The SHA-256 of the object's bytes, streamed (never held whole); refuses (throws) past `maxBytes`. */
export async function hashObject(key: string, maxBytes = MAX_UPLOAD_BYTES): Promise<string> {
  const res = await s3.send(new GetObjectCommand({ Bucket: filesBucket, Key: key }));
  let size = 0;
  const bounded = async function* () {
    for await (const chunk of res.Body as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > maxBytes) throw new Error('the object is larger than allowed');
      yield chunk;
    }
  };
  return sha256Of(bounded());
}

/**
 * An upload that passed, moved to its file key: copied with the type its bytes proved (not the
 * type the client sent), then every version of the upload deleted. Tags are copied as they are,
 * and an upload has none: its POST policy admits no `tagging` field, so no one can pose as
 * scanned (and the copy needs no tagging permission).
 */
export async function promoteUpload(from: string, to: string, contentType: AllowedContentType): Promise<void> {
  await s3.send(
    new CopyObjectCommand({
      Bucket: filesBucket,
      CopySource: `${filesBucket}/${from}`,
      Key: to,
      MetadataDirective: 'REPLACE',
      ContentType: contentType,
    }),
  );
  await deleteEveryVersion(from);
}

/**
 * Every version of `key`, and every delete marker, gone: the bucket is versioned, so a plain
 * DeleteObject would only hide the bytes behind a marker. Answers how many versions were deleted
 * (0 when there was nothing). Exactly `key`: other keys sharing it as a prefix are untouched.
 */
export async function deleteEveryVersion(key: string): Promise<number> {
  let deleted = 0;
  for (let round = 0; round < 100; round++) {
    const listed = await s3.send(new ListObjectVersionsCommand({ Bucket: filesBucket, Prefix: key, MaxKeys: 1000 }));
    const objects = [...(listed.Versions ?? []), ...(listed.DeleteMarkers ?? [])]
      .filter((v) => v.Key === key)
      .map((v) => ({ Key: key, VersionId: v.VersionId ?? 'null' }));
    if (objects.length === 0) return deleted;
    const res = await s3.send(new DeleteObjectsCommand({ Bucket: filesBucket, Delete: { Objects: objects, Quiet: true } }));
    if (res.Errors?.length) throw new Error(`S3 could not delete ${res.Errors.length} version(s) of an object (${res.Errors[0]?.Code})`);
    deleted += objects.length;
  }
  throw new Error('an object kept gaining versions while they were deleted');
}

/**
 * Every version and delete marker of every key under `prefix` (a person's files, on erasure):
 * answers the distinct keys that had any. Paged by S3's markers; a prefix is checked to end with
 * `/`, so one person's prefix never reaches another's.
 */
export async function deleteEveryVersionUnder(prefix: string): Promise<{ keys: number; versions: number }> {
  if (!prefix.endsWith('/')) throw new Error('a prefix to empty must end with /');
  const seen = new Set<string>();
  let versions = 0;
  for (let round = 0; round < 10_000; round++) {
    const listed = await s3.send(new ListObjectVersionsCommand({ Bucket: filesBucket, Prefix: prefix, MaxKeys: 1000 }));
    const objects = [...(listed.Versions ?? []), ...(listed.DeleteMarkers ?? [])]
      .filter((v) => v.Key?.startsWith(prefix))
      .map((v) => ({ Key: v.Key!, VersionId: v.VersionId ?? 'null' }));
    if (objects.length === 0) return { keys: seen.size, versions };
    const res = await s3.send(new DeleteObjectsCommand({ Bucket: filesBucket, Delete: { Objects: objects, Quiet: true } }));
    if (res.Errors?.length) throw new Error(`S3 could not delete ${res.Errors.length} version(s) of an object (${res.Errors[0]?.Code})`);
    for (const o of objects) seen.add(o.Key);
    versions += objects.length;
  }
  throw new Error('a prefix kept gaining versions while they were deleted');
}

/**
 * A link that downloads the file for DOWNLOAD_VALID_SECONDS at most: saved, never rendered
 * (`Content-Disposition: attachment` with its sanitised name), with the type its bytes proved,
 * so nothing uploaded can run in the console's origin.
 */
export function downloadUrl(key: string, file: { filename: string; contentType: AllowedContentType }, seconds = DOWNLOAD_VALID_SECONDS) {
  return getSignedUrl(
    s3,
    new GetObjectCommand({
      Bucket: filesBucket,
      Key: key,
      ResponseContentDisposition: attachmentDisposition(file.filename),
      ResponseContentType: file.contentType,
    }),
    { expiresIn: Math.min(seconds, DOWNLOAD_VALID_SECONDS) },
  );
}
