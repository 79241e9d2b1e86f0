/**
 * The delivery bench's HTTPS receiver, in a process of its own (as a real receiver is): answers
 * 204 to every POST, and counts requests, distinct `webhook-id`s, TLS connections and its own CPU time. The parent
 * talks to it over IPC: `{ cmd: 'reset' }`, `{ cmd: 'stats' }`; it first sends `{ port }`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

const seen = new Set<string>();
let requests = 0;
let connections = 0;
const server = createServer({ cert: readFileSync(process.env.BENCH_CERT!), key: readFileSync(process.env.BENCH_KEY!) }, (req, res) => {
  req.resume().on('end', () => {
    requests++;
    seen.add(String(req.headers['webhook-id']));
    res.writeHead(204).end();
  });
});
server.on('secureConnection', () => connections++);
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
process.on('message', (m: { cmd: string }) => {
  if (m.cmd === 'reset') {
    seen.clear();
    requests = 0;
    connections = 0;
  }
  const { user, system } = process.cpuUsage();
  process.send!({ distinct: seen.size, requests, connections, cpuMs: (user + system) / 1000 });
});
process.on('disconnect', () => process.exit(0));
