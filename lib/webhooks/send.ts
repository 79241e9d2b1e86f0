/**
 * Low-level webhook sender: one HTTPS POST, with the SSRF guard applied at CONNECT time.
 *
 * Why node:https and not fetch: the guard has to see the address a socket is about to connect to.
 * A DNS-lookup hook alone is not enough (Node's net skips `lookup` entirely for IP-literal hosts,
 * which is how an undici `connect.lookup` guard still reached 127.0.0.1), so:
 *   - IP-literal hosts (after WHATWG URL normalisation: 2130706433, 0x7f.1, 0177.0.0.1, 127.1 all
 *     become 127.0.0.1) are checked here before any socket exists;
 *   - host names go through `guardedLookup`, which resolves every address, refuses the request if
 *     ANY of them is forbidden, and hands Node only checked addresses. Node connects to exactly
 *     what the lookup returned, so there is no second resolution to rebind.
 * Redirects are never followed (node:https does not follow them; a 3xx is just the result).
 *
 * Header values carry signatures: nothing here logs them or puts them in an error string.
 * Errors are reported as a category plus a Node error code, never as Node's free-text message.
 */
import dns from 'node:dns';
import https from 'node:https';
import type { IncomingMessage, ClientRequest } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { DELIVERY_BATCH_SIZE, DELIVERY_MAX_CONCURRENCY } from './config';
import { BlockedTargetError, forbiddenReason } from './ssrf';

export interface SendResult {
  /** HTTP status of the receiver; 0 when there was no HTTP response (see `error`). */
  status: number;
  /** Wall time from the call to the result, including DNS, connect and TLS. */
  durationMs: number;
  /** Response body, at most 4 KiB, decoded as UTF-8. */
  body: string;
  /**
   * Why there was no response (always set when status is 0: blocked target, invalid URL, DNS
   * failure, connection refused/reset, TLS error, timeout). Also set, with the real status, when
   * the response headers arrived but reading the body failed or timed out.
   */
  error?: string;
  /** Parsed Retry-After (delta-seconds or HTTP-date), in milliseconds, when the receiver sent one. */
  retryAfterMs?: number;
}

export const MAX_RESPONSE_BODY_BYTES = 4096;

/**
 * Keep-alive agents, one per policy. The SSRF lookup only runs when a NEW socket connects; a reused
 * socket is fine because it is already connected to an address that passed the check when it was
 * opened, and an established TCP connection cannot be re-pointed by DNS changes (no rebinding).
 * IP-literal hosts are checked on every call anyway. Two agents, not one, because the pool key
 * (host:port:tls options) does not include our policy: a socket opened to localhost under
 * allowLoopback=true must never be handed to an allowLoopback=false request.
 *
 * `maxFreeSockets` keeps a socket for every attempt that can be in flight at once (a batch, times
 * the batches one process runs): with 64, batches of 50 four at a time reopened a TLS connection
 * for one delivery in five (`npm run bench`). No `maxSockets`: a cap would queue attempts behind a
 * slow receiver's and time them out unsent.
 *
 * `timeout` closes idle pooled sockets after 4 s, below the common 5 s server keep-alive timeout
 * (Node's default), so we rarely write into a socket the receiver is closing. A Lambda freeze can
 * still leave a stale socket in the pool; that case is retried on a new socket (see below).
 */
const agentOptions: https.AgentOptions = {
  keepAlive: true,
  timeout: 4_000,
  maxFreeSockets: DELIVERY_BATCH_SIZE * DELIVERY_MAX_CONCURRENCY,
};
const agents = {
  strict: new https.Agent(agentOptions),
  loopback: new https.Agent(agentOptions),
};

/** Custom `lookup` for https.request: resolve all, refuse if any is forbidden, return only checked addresses. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    // Resolve every family regardless of what Node asks for, so a name with any forbidden
    // address is refused outright. `hints` (ADDRCONFIG) is passed through.
    dns.lookup(hostname, { all: true, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const reason = forbiddenReason(a.address, { allowLoopback });
        if (reason !== undefined) return callback(new BlockedTargetError(a.address, reason), '', 0);
      }
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
      const first = usable[0];
      if (first === undefined) {
        return callback(Object.assign(new Error('no address for host'), { code: 'ENOTFOUND' }), '', 0);
      }
      // Node 20/22 call a custom lookup with { all: true } when autoSelectFamily is on (the default)
      // and then expect an array; otherwise (err, address, family). Every address here has passed
      // the check, so with `all` we return them all and let happy-eyeballs fall back between
      // families (e.g. AAAA first but no IPv6 route on Lambda).
      if (options.all) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}
const lookups = { strict: guardedLookup(false), loopback: guardedLookup(true) };

/** Retry-After: delta-seconds or HTTP-date (RFC 9110 10.2.3) -> ms from now; undefined if absent or invalid. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // HTTP-date forms all start with a day name (IMF-fixdate, RFC 850, asctime). Requiring it keeps
  // Date.parse's lenient guessing (e.g. "7.5" -> a date in 2001) out.
  if (!/^[A-Za-z]{3,9},? /.test(v)) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);

/** A short, secret-free description: category and Node error code, never Node's message text. */
function describeError(err: unknown): string {
  if (err instanceof BlockedTargetError) return `blocked target: ${err.address} is ${err.reason}`;
  const code = (err as { code?: unknown } | null)?.code;
  const c = typeof code === 'string' ? code : 'UNKNOWN';
  let category = 'request failed';
  if (c === 'ECONNREFUSED') category = 'connection refused';
  else if (c === 'ECONNRESET' || c === 'EPIPE' || c === 'ECONNABORTED') category = 'connection reset';
  else if (c === 'ENOTFOUND' || c === 'EAI_AGAIN' || c === 'EAI_FAIL' || c === 'ENODATA') category = 'dns lookup failed';
  else if (c === 'EHOSTUNREACH' || c === 'ENETUNREACH' || c === 'ETIMEDOUT') category = 'host unreachable';
  else if (c.startsWith('ERR_TLS_') || c.startsWith('ERR_SSL_') || TLS_CODES.has(c)) category = 'tls error';
  else if (c === 'ERR_INVALID_HTTP_TOKEN' || c === 'ERR_INVALID_CHAR' || c === 'ERR_HTTP_INVALID_HEADER_VALUE') {
    category = 'invalid request headers';
  }
  return `${category} (${c})`;
}

const isStaleSocketError = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
};

/**
 * POST `body` (exactly these UTF-8 bytes, with Content-Length) to `url` with `headers`.
 * Never throws; every failure is a SendResult with status 0 and `error`.
 */
export async function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowLoopback: boolean },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (error: string): SendResult => ({ status: 0, durationMs: elapsed(), body: '', error });

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return fail('invalid url');
  }
  if (target.protocol !== 'https:') return fail(`unsupported scheme ${target.protocol} (https only)`);
  if (target.username !== '' || target.password !== '') return fail('url must not contain credentials');

  // WHATWG URL has already normalised numeric/hex/octal/short IPv4 forms to dotted quads and
  // compressed IPv6; hostname keeps IPv6 brackets.
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const policy = opts.allowLoopback ? 'loopback' : 'strict';
  if (isIP(host) !== 0) {
    const reason = forbiddenReason(host, { allowLoopback: opts.allowLoopback });
    if (reason !== undefined) return fail(describeError(new BlockedTargetError(host, reason)));
  }

  const payload = Buffer.from(body, 'utf8');
  const outHeaders: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'transfer-encoding') continue;
    outHeaders[name] = value;
  }
  outHeaders['Content-Length'] = payload.length;

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let current: ClientRequest | undefined;
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let received = 0;

    const settle = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: elapsed() });
    };
    const partial = (status: number, truncated: boolean, error?: string): Omit<SendResult, 'durationMs'> => {
      const buf = Buffer.concat(chunks, received);
      // When cut short, StringDecoder.write drops an incomplete trailing multi-byte sequence
      // instead of emitting U+FFFD for it.
      const text = truncated ? new StringDecoder('utf8').write(buf) : buf.toString('utf8');
      const retryAfterMs = parseRetryAfter(headerValue(response?.headers['retry-after']));
      return {
        status,
        body: text,
        ...(error !== undefined ? { error } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    };

    const timer = setTimeout(() => {
      const error = `timeout after ${opts.timeoutMs} ms`;
      if (response) settle(partial(response.statusCode ?? 0, true, `${error} (reading response body)`));
      else settle({ status: 0, body: '', error });
      current?.destroy();
    }, opts.timeoutMs);

    const attempt = () => {
      let req: ClientRequest;
      try {
        req = https.request({
          method: 'POST',
          protocol: 'https:',
          hostname: host,
          port: target.port === '' ? 443 : Number(target.port),
          path: `${target.pathname}${target.search}`,
          headers: outHeaders,
          agent: agents[policy],
          lookup: lookups[policy],
        });
      } catch (err) {
        // e.g. invalid header name/value: thrown synchronously, before any connection.
        settle({ status: 0, body: '', error: describeError(err) });
        return;
      }
      current = req;

      req.on('error', (err) => {
        if (settled) return;
        // A pooled keep-alive socket can be dead on reuse (receiver closed it while idle, or the
        // Lambda was frozen past its idle timer). Node reports that as ECONNRESET/EPIPE on a
        // reusedSocket before any response; the receiver never saw the request, so try again on
        // another socket. Bounded: a failed socket is destroyed and never returns to the pool, and
        // a failure on a fresh socket is final. Webhooks are at-least-once anyway (stable ids).
        if (!response && req.reusedSocket && isStaleSocketError(err)) return attempt();
        if (response) settle(partial(response.statusCode ?? 0, true, describeError(err)));
        else settle({ status: 0, body: '', error: describeError(err) });
      });

      req.on('response', (res) => {
        response = res;
        const status = res.statusCode ?? 0;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = MAX_RESPONSE_BODY_BYTES - received;
          if (chunk.length < room) {
            chunks.push(chunk);
            received += chunk.length;
            return;
          }
          chunks.push(chunk.subarray(0, room));
          received += room;
          settle(partial(status, true));
          // Stop reading: destroying drops the socket (it is not returned to the pool).
          res.destroy();
        });
        res.on('end', () => settle(partial(status, false)));
        res.on('error', (err) => settle(partial(status, true, describeError(err))));
        res.on('close', () => {
          if (!res.complete) settle(partial(status, true, 'connection closed while reading response body'));
        });
      });

      req.end(payload);
    };

    attempt();
  });
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
