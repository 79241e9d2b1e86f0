/**
 * The console's built files for the local gateway, served the way CloudFront serves them from S3:
 * a file when one exists, `index.html` for client-side routes (paths without a file extension),
 * hashed assets cached for a year, everything else revalidated.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { errorBody } from '../lib/errors';
import { CONSOLE_SECURITY_HEADERS, consoleSecurityHeaders } from '../lib/security-headers';

export { CONSOLE_DIST as DEFAULT_CONSOLE_DIR } from '../console/build';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface FileAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const isFile = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * The answer for a GET/HEAD of `path` (already decoded of nothing: the raw URL path). `filesOrigin`
 * is the files bucket's, which the page's CSP then admits for uploads and images.
 */
export async function consoleFile(dir: string, path: string, filesOrigin?: string): Promise<FileAnswer> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return notFound();
  }
  // Dot-files and anything that would leave the directory are never served.
  const parts = decoded.split('/').filter(Boolean);
  if (decoded.includes('\0') || parts.some((p) => p.startsWith('.') || p.includes('\\'))) return notFound();
  const candidate = resolve(dir, ...parts);
  if (candidate !== dir && !candidate.startsWith(dir + sep)) return notFound();
  let file = candidate;
  if (!(await isFile(file))) {
    // A client-side route: the page itself. A missing file with an extension is a real 404.
    if (extname(decoded)) return notFound();
    file = join(dir, 'index.html');
    if (!(await isFile(file))) {
      return {
        status: 503,
        headers: { 'Content-Type': 'application/json', ...CONSOLE_SECURITY_HEADERS },
        body: Buffer.from(
          JSON.stringify(errorBody('The console is not built yet; npm start builds it (or run npm run build:console)', 'internal_error')),
        ),
      };
    }
  }
  const hashed = file.includes(`${sep}assets${sep}`);
  return {
    status: 200,
    headers: {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...consoleSecurityHeaders(filesOrigin),
    },
    body: await readFile(file),
  };
}

const notFound = (): FileAnswer => ({
  status: 404,
  headers: { 'Content-Type': 'application/json', ...CONSOLE_SECURITY_HEADERS },
  body: Buffer.from(JSON.stringify(errorBody('Not found', 'not_found'))),
});
