/**
 * The few S3 calls the files bucket needs, signed with Signature Version 4 and sent with
 * node:http(s): HeadObject, GetObject (streamed), CopyObject, DeleteObjects, ListObjectVersions,
 * a presigned GET and a presigned POST. Not the SDK's S3 client: with its schemas and checksum
 * middleware it added about 170 KB to each function that touched the bucket, past the 400 KB
 * budget; this adds a few KB (the signer is already in every bundle, under the DynamoDB client).
 *
 * Against S3 it addresses the bucket by virtual host and signs with the function's role (the
 * environment's credentials, as Lambda hands them); with S3_ENDPOINT (the local S3 of
 * `npm start` and the tests) by path, with the local server's fixed key.
 */
import { createHash, createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import { clientFor } from '../aws/client-for';
import { config } from '../config';

const bytes = (d: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof d === 'string' ? d : d instanceof ArrayBuffer ? new Uint8Array(d) : new Uint8Array(d.buffer, d.byteOffset, d.byteLength);

/** SignatureV4's hash: SHA-256, or HMAC-SHA-256 when given a secret. */
class Sha256 {
  private readonly h;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.h = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.h.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.h.digest());
  }
}

const LOCAL_CREDENTIALS: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } = {
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
};
const roleCredentials = fromEnv();
const credentials = async () => (config.s3Endpoint ? LOCAL_CREDENTIALS : roleCredentials());
const signer = /* @__PURE__ */ clientFor(
  () => config.region,
  () => new SignatureV4({ service: 's3', region: config.region, credentials, sha256: Sha256, uriEscapePath: false }),
);

export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`S3 answered ${status} ${code}`);
    this.name = 'S3Error';
  }
}

/** Where the bucket is: its base URL, and the path of a key under it. */
function location(bucket: string) {
  const base = config.s3Endpoint
    ? new URL(`${config.s3Endpoint.replace(/\/$/, '')}/${bucket}`)
    : new URL(`https://${bucket}.s3.${config.region}.amazonaws.com`);
  const prefix = base.pathname === '/' ? '' : base.pathname;
  return { base, prefix };
}

/** The bucket's URL (no trailing slash), where a presigned POST goes. */
export const bucketUrl = (bucket: string) => location(bucket).base.toString().replace(/\/$/, '');

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

interface Call {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST';
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
}

async function signed(bucket: string, c: Call) {
  const { base, prefix } = location(bucket);
  const path = `${prefix}/${c.key ? encodeKey(c.key) : ''}`;
  const host = base.host;
  const payloadHash = c.body === undefined ? 'UNSIGNED-PAYLOAD' : createHash('sha256').update(c.body).digest('hex');
  const req = await signer().sign({
    method: c.method,
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port ? Number(base.port) : undefined,
    path,
    query: c.query ?? {},
    headers: { host, 'x-amz-content-sha256': payloadHash, ...c.headers },
    body: c.body,
  });
  const qs = new URLSearchParams(req.query as Record<string, string>).toString();
  return { url: new URL(`${base.protocol}//${host}${path}${qs ? `?${qs}` : ''}`), headers: req.headers };
}

/** Send one call; the answer's status, headers and (unless `stream`) its body as text. */
async function send(bucket: string, c: Call): Promise<IncomingMessage> {
  const { url, headers } = await signed(bucket, c);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = request(url, { method: c.method, headers }, resolve);
    r.on('error', reject);
    r.end(c.body);
  });
}

async function text(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The answer's body when it succeeded; an S3Error with its code otherwise (never its message: it may quote a key). */
async function ok(res: IncomingMessage): Promise<string> {
  const body = await text(res);
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) return body;
  throw new S3Error(status, /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? 'Unknown');
}

export async function headObject(bucket: string, key: string): Promise<{ size: number; contentType: string | undefined } | undefined> {
  const res = await send(bucket, { method: 'HEAD', key });
  res.resume();
  if (res.statusCode === 404) return undefined;
  await ok(res);
  const length = res.headers['content-length'];
  return { size: length === undefined ? Number.NaN : Number(length), contentType: res.headers['content-type'] };
}

/** The object's bytes as a stream, with its declared length; undefined when nothing is there. */
export async function getObject(bucket: string, key: string): Promise<{ length: number | undefined; body: IncomingMessage } | undefined> {
  const res = await send(bucket, { method: 'GET', key });
  if (res.statusCode === 404) {
    res.resume();
    return undefined;
  }
  if ((res.statusCode ?? 0) >= 300) await ok(res);
  const length = res.headers['content-length'];
  return { length: length === undefined ? undefined : Number(length), body: res };
}

export async function copyObject(bucket: string, from: string, to: string, contentType: string): Promise<void> {
  const res = await send(bucket, {
    method: 'PUT',
    key: to,
    headers: { 'x-amz-copy-source': `/${bucket}/${encodeKey(from)}`, 'x-amz-metadata-directive': 'REPLACE', 'content-type': contentType },
  });
  const body = await ok(res);
  // A copy can fail after its 200 has been sent: the error is then the body.
  if (/<Error>/.test(body)) throw new S3Error(500, /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? 'Unknown');
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const xmlUnescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

export async function deleteObjects(bucket: string, objects: { Key: string; VersionId: string }[]): Promise<number> {
  const body = `<?xml version="1.0" encoding="UTF-8"?><Delete><Quiet>true</Quiet>${objects
    // "null" is the version of an object written while versioning was off: only the local S3's
    // (the deployed bucket is versioned from its creation), which refuses it in a batch of several.
    .map(
      (o) =>
        `<Object><Key>${xmlEscape(o.Key)}</Key>${o.VersionId === 'null' ? '' : `<VersionId>${xmlEscape(o.VersionId)}</VersionId>`}</Object>`,
    )
    .join('')}</Delete>`;
  const res = await send(bucket, {
    method: 'POST',
    query: { delete: '' },
    headers: { 'content-type': 'application/xml', 'content-md5': createHash('md5').update(body).digest('base64') },
    body,
  });
  const answer = await ok(res);
  return (answer.match(/<Error>/g) ?? []).length;
}

/** One page of the versions and delete markers under `prefix`. */
export async function listObjectVersions(bucket: string, prefix: string): Promise<{ Key: string; VersionId: string }[]> {
  const res = await send(bucket, { method: 'GET', query: { versions: '', prefix, 'max-keys': '1000' } });
  const xml = await ok(res);
  return [...xml.matchAll(/<(Version|DeleteMarker)>([\s\S]*?)<\/\1>/g)].map((m) => ({
    Key: xmlUnescape(/<Key>([^<]*)<\/Key>/.exec(m[2]!)?.[1] ?? ''),
    VersionId: xmlUnescape(/<VersionId>([^<]*)<\/VersionId>/.exec(m[2]!)?.[1] ?? 'null'),
  }));
}

/** A GET of `key` anyone holding the link may make for `seconds`, with these response headers. */
export async function presignGet(bucket: string, key: string, seconds: number, response: Record<string, string>): Promise<string> {
  const { base, prefix } = location(bucket);
  const path = `${prefix}/${encodeKey(key)}`;
  const req = await signer().presign(
    {
      method: 'GET',
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port ? Number(base.port) : undefined,
      path,
      query: response,
      headers: { host: base.host },
    },
    { expiresIn: seconds },
  );
  const qs = new URLSearchParams(req.query as Record<string, string>).toString();
  return `${base.protocol}//${base.host}${path}?${qs}`;
}

const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * A presigned POST (S3's browser-based upload): the policy holds the bucket, the exact key, each
 * field as an exact match, the `conditions` given, and the signing fields; it expires after
 * `seconds`. The fields go in the form before the file.
 */
export async function presignPost(
  bucket: string,
  key: string,
  fields: Record<string, string>,
  conditions: unknown[],
  seconds: number,
  now = new Date(),
): Promise<{ url: string; fields: Record<string, string> }> {
  const creds = await credentials();
  const region = config.region;
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const credential = `${creds.accessKeyId}/${day}/${region}/s3/aws4_request`;
  const signing: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': credential,
    'X-Amz-Date': date,
    ...(creds.sessionToken && { 'X-Amz-Security-Token': creds.sessionToken }),
  };
  const policy = {
    expiration: new Date(now.getTime() + seconds * 1000).toISOString(),
    conditions: [
      { bucket },
      { key },
      ...Object.entries(fields).map(([k, v]) => ({ [k]: v })),
      ...conditions,
      ...Object.entries(signing).map(([k, v]) => ({ [k]: v })),
    ],
  };
  const encoded = Buffer.from(JSON.stringify(policy)).toString('base64');
  const hmac = (k: string | Buffer, v: string) => createHmac('sha256', k).update(v).digest();
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(encoded).digest('hex');
  const { base } = location(bucket);
  return {
    url: base.toString().replace(/\/$/, ''),
    fields: { bucket, ...fields, ...signing, key, Policy: encoded, 'X-Amz-Signature': signature },
  };
}
