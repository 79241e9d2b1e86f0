/**
 * The local S3 of `npm start` and the tests: s3rver (an npm package: a real S3 REST API on this
 * machine, objects kept as files) inside this process, on 127.0.0.1, with the files bucket made
 * at start. The SDK clients reach it by path-style addressing (lib/files/storage.ts), and the
 * presigned POSTs and GETs the service makes work against it as against S3.
 *
 * What it does not do, and the service must not rely on: it checks no signature and no POST
 * policy (another key, another content type, a body past the size range are all accepted), and
 * it keeps no versions. So the service checks every upload once it has landed
 * (lib/files/verify.ts), and deletes "every version" through ListObjectVersions, which s3rver
 * lacks: it is answered here, as S3 answers it for an unversioned bucket (each object once, with
 * the version id "null", which DeleteObject then accepts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { filesCorsRules } from '../lib/files/cors';
import { UPLOADS_PREFIX } from '../lib/files/keys';
import { UNATTACHED_UPLOAD_DAYS } from '../lib/files/limits';

const require = createRequire(import.meta.url);

/** The files bucket of the local runtime. */
export const LOCAL_FILES_BUCKET = 'talent-pipeline-files';
/** s3rver's one account: it refuses other access key ids. Local only; no real credential. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface LocalS3 {
  endpoint: string;
  port: number;
  bucket: string;
  /** Let a browser page of this origin POST uploads and GET downloads, and any origin POST (the bucket's CORS rules). */
  allowOrigin(origin: string): Promise<void>;
  /**
   * Delete the objects under `uploads/` last modified more than UNATTACHED_UPLOAD_DAYS before `now`
   * (what the deployed bucket's lifecycle rule does; s3rver has none); answers how many went.
   */
  expireUploads(now?: number): Promise<number>;
  /** Call `listener` with the key and size of each object created (a POST, a PUT, a copy), as S3 reports them to EventBridge. */
  onObjectCreated(listener: (object: { key: string; size: number }) => void): void;
  stop(): Promise<void>;
}

interface S3rverInstance {
  store: {
    listObjects(
      bucket: string,
      opts: { prefix?: string; maxKeys?: number },
    ): Promise<{
      objects: { key: string; size: number; lastModifiedDate: Date; metadata: Record<string, string> }[];
      isTruncated: boolean;
    }>;
    putSubresource(bucket: string, key: undefined, resource: unknown): Promise<void>;
    deleteObject(bucket: string, key: string): Promise<void>;
  };
  configureBuckets(): Promise<void>;
  on(event: 'event', listener: (e: { Records: { eventName: string; s3: { object: { key: string; size?: number } } }[] }) => void): void;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `directory` keeps the objects (under DATA_DIR for `npm start`); `port` 0 or unset picks a free one. */
export async function startLocalS3(opts: { directory: string; port?: number; bucket?: string }): Promise<LocalS3> {
  const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;
  const { getConfigModel } = require('s3rver/lib/models/config') as {
    getConfigModel(type: 'cors'): { validate(xml: string): unknown };
  };
  const bucket = opts.bucket ?? LOCAL_FILES_BUCKET;
  const app = new S3rver({
    directory: opts.directory,
    silent: true,
    // Path-style only: a virtual-hosted name would need DNS for <bucket>.127.0.0.1.
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  await app.configureBuckets();
  const handle = app.callback();

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (req.method === 'GET' && url.searchParams.has('versions') && (url.pathname === `/${bucket}` || url.pathname === `/${bucket}/`)) {
      void listVersions(app, bucket, url.searchParams, res);
      return;
    }
    handle(req, res);
  });
  // Uploads of 20 MB from a slow client: no request timeout of Node's own.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;

  let stopping: Promise<void> | undefined;
  return {
    endpoint,
    port,
    bucket,
    async allowOrigin(origin: string) {
      // The deployed bucket's rules (lib/files/cors.ts), the console's origin being this one.
      const rules = filesCorsRules([new URL(origin).origin])
        .map(
          (r) =>
            `<CORSRule><ID>${xml(r.id)}</ID>${[
              ...r.origins.map((o) => `<AllowedOrigin>${xml(o)}</AllowedOrigin>`),
              ...r.methods.map((m) => `<AllowedMethod>${m}</AllowedMethod>`),
              ...r.headers.map((h) => `<AllowedHeader>${xml(h)}</AllowedHeader>`),
              ...r.expose.map((h) => `<ExposeHeader>${xml(h)}</ExposeHeader>`),
            ].join('')}<MaxAgeSeconds>${r.maxAgeSeconds}</MaxAgeSeconds></CORSRule>`,
        )
        .join('');
      await app.store.putSubresource(bucket, undefined, getConfigModel('cors').validate(`<CORSConfiguration>${rules}</CORSConfiguration>`));
    },
    async expireUploads(now = Date.now()) {
      const before = now - UNATTACHED_UPLOAD_DAYS * 86_400_000;
      // s3rver's store walks the prefix's directories and reads each object's metadata: no paging needed.
      const { objects } = await app.store.listObjects(bucket, { prefix: UPLOADS_PREFIX });
      const old = objects.filter((o) => o.lastModifiedDate.getTime() < before);
      for (const o of old) await app.store.deleteObject(bucket, o.key);
      return old.length;
    },
    onObjectCreated(listener) {
      app.on('event', (e) => {
        for (const r of e.Records)
          if (r.eventName.startsWith('ObjectCreated:')) listener({ key: r.s3.object.key, size: r.s3.object.size ?? 0 });
      });
    },
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

/** ListObjectVersions of an unversioned bucket: every object under the prefix, version id "null". */
async function listVersions(app: S3rverInstance, bucket: string, params: URLSearchParams, res: ServerResponse) {
  try {
    const prefix = params.get('prefix') ?? '';
    const maxKeys = Math.min(Number(params.get('max-keys') ?? 1000) || 1000, 1000);
    const { objects, isTruncated } = await app.store.listObjects(bucket, { prefix, maxKeys });
    const versions = objects
      .map(
        (o) =>
          `<Version><Key>${xml(o.key)}</Key><VersionId>null</VersionId><IsLatest>true</IsLatest><LastModified>${o.lastModifiedDate.toISOString()}</LastModified><ETag>${xml(o.metadata.etag ?? '')}</ETag><Size>${o.size}</Size><StorageClass>STANDARD</StorageClass></Version>`,
      )
      .join('');
    res.writeHead(200, { 'Content-Type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xml(bucket)}</Name><Prefix>${xml(prefix)}</Prefix><KeyMarker></KeyMarker><VersionIdMarker></VersionIdMarker><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${isTruncated}</IsTruncated>${versions}</ListVersionsResult>`,
    );
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>${xml(String(err))}</Message></Error>`);
  }
}
