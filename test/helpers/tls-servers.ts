/**
 * The one HTTPS receiver of the tests: real servers on the loopback interface with the
 * self-signed cert from test/helpers/global-setup.ts (`inject('tls')`), which the workers and
 * the `npm start` they spawn trust through NODE_EXTRA_CA_CERTS. Each server records every
 * request with its body, and counts accepted TCP connections (before any TLS), so a test can
 * show that a refused target was never even connected to.
 */
import { once } from 'node:events';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface TestServer {
  port: number;
  connections: number;
  requests: Recorded[];
  ipv6: boolean;
  /** `https://127.0.0.1:<port><path>`. */
  url: (path?: string) => string;
  /** Closes this server (both listeners), dropping open connections: the receiver is down. */
  close: () => Promise<void>;
}

export interface StartOptions {
  /** Another cert/key than the trusted test one. */
  cert?: string;
  key?: string;
  /** Record the request and call the handler as soon as it starts (body not read, `body` empty). */
  onRequestStart?: boolean;
}

/** Starts test servers with `pems` by default; `closeAll()` (for afterAll) closes every one. */
export function tlsServers(pems: { cert: string; key: string }) {
  const servers: https.Server[] = [];

  /** An HTTPS server on 127.0.0.1 (and ::1 on the same port when possible) counting TCP connections. */
  async function start(handler: Handler, opts: StartOptions = {}): Promise<TestServer> {
    const mine: https.Server[] = [];
    const state: TestServer = {
      port: 0,
      connections: 0,
      requests: [],
      ipv6: false,
      url: (path = '') => `https://127.0.0.1:${state.port}${path}`,
      close: async () => {
        await Promise.all(mine.map(closeOne));
        for (const s of mine) servers.splice(servers.indexOf(s), 1);
      },
    };
    const make = () => {
      const server = https.createServer({ cert: opts.cert ?? pems.cert, key: opts.key ?? pems.key }, (req, res) => {
        if (opts.onRequestStart) {
          state.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.alloc(0) });
          return handler(req, res, Buffer.alloc(0));
        }
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          state.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
          handler(req, res, body);
        });
      });
      // net.Server 'connection': TCP accepted, before any TLS.
      server.on('connection', () => void state.connections++);
      server.on('tlsClientError', () => {});
      servers.push(server);
      mine.push(server);
      return server;
    };
    const v4 = make();
    v4.listen(0, '127.0.0.1');
    await once(v4, 'listening');
    state.port = (v4.address() as AddressInfo).port;
    const v6 = make();
    try {
      v6.listen(state.port, '::1');
      await once(v6, 'listening');
      state.ipv6 = true;
    } catch {
      state.ipv6 = false; // no IPv6 loopback on this machine: the IPv4 listener still counts
    }
    return state;
  }

  async function closeOne(s: https.Server) {
    s.closeAllConnections();
    if (s.listening) await new Promise((r) => s.close(r));
  }

  async function closeAll() {
    await Promise.all(servers.map(closeOne));
  }

  return { start, closeAll };
}
