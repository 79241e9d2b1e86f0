/**
 * The files bucket: the object operations the file routes and the worker need, over the small
 * signed client of lib/files/s3-lite.ts. The same code runs against S3 and the local S3 of
 * `npm start` (dev/s3.ts): with S3_ENDPOINT set, it addresses the bucket by path and signs with
 * the local server's fixed key; otherwise it uses the function's role.
 *
 * A function that loads this module and was not given FILES_BUCKET stops at cold start, naming
 * the variable (lib/config.ts).
 */
import { config, requireSettings } from '../config';
import { attachmentDisposition } from './filename';
import { sha256Of } from './hash';
import { type AllowedContentType, DOWNLOAD_VALID_SECONDS, MAX_UPLOAD_BYTES } from './limits';
import * as s3 from './s3-lite';
import type { LandedObject } from './verify';

// Checked as this module loads: a function that touches files and was not given the bucket stops at cold start.
requireSettings('filesBucket');
export const filesBucket = (): string => config.filesBucket;

/** The bucket's URL: virtual-hosted and regional on S3, path-style on the local S3 (S3_ENDPOINT). */
export const bucketUrl = (): string => s3.bucketUrl(filesBucket());

/** What S3 holds at `key` (size and stored content type), or undefined when nothing is there. */
export async function headObject(key: string): Promise<LandedObject | undefined> {
  const head = await s3.headObject(filesBucket(), key);
  return head && { size: Number.isNaN(head.size) ? undefined : head.size, contentType: head.contentType };
}

/** The object's bytes, read whole; refuses (throws) past `maxBytes` rather than holding more. */
export async function readObject(key: string, maxBytes = MAX_UPLOAD_BYTES): Promise<Uint8Array> {
  const res = await s3.getObject(filesBucket(), key);
  if (!res) throw new Error('the object is not there');
  if (res.length !== undefined && res.length > maxBytes) {
    res.body.destroy();
    throw new Error('the object is larger than allowed');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw new Error('the object is larger than allowed');
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

/** The SHA-256 of the object's bytes, streamed (never held whole); refuses (throws) past `maxBytes`. */
export async function hashObject(key: string, maxBytes = MAX_UPLOAD_BYTES): Promise<string> {
  const res = await s3.getObject(filesBucket(), key);
  if (!res) throw new Error('the object is not there');
  let size = 0;
  const bounded = async function* () {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
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
  await s3.copyObject(filesBucket(), from, to, contentType);
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
    const objects = (await s3.listObjectVersions(filesBucket(), key)).filter((v) => v.Key === key);
    if (objects.length === 0) return deleted;
    const errors = await s3.deleteObjects(filesBucket(), objects);
    if (errors) throw new Error(`S3 could not delete ${errors} version(s) of an object`);
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
    const objects = (await s3.listObjectVersions(filesBucket(), prefix)).filter((v) => v.Key.startsWith(prefix));
    if (objects.length === 0) return { keys: seen.size, versions };
    // One key's versions per call: a person holds a few files, and the local S3 fails a batch
    // that names several keys of one folder (it removes the folder while deleting them).
    for (const key of new Set(objects.map((o) => o.Key))) {
      const errors = await s3.deleteObjects(
        filesBucket(),
        objects.filter((o) => o.Key === key),
      );
      if (errors) throw new Error(`S3 could not delete ${errors} version(s) of an object`);
    }
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
  return s3.presignGet(filesBucket(), key, Math.min(seconds, DOWNLOAD_VALID_SECONDS), {
    'response-content-disposition': attachmentDisposition(file.filename),
    'response-content-type': file.contentType,
  });
}
