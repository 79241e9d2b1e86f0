/**
 * `npm start` on a port something else holds: it must say so and end before it starts Java or
 * seeds a workspace, so nothing is left running and the data directory stays untouched.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { e2eSandbox, processesMentioning, run } from '../helpers/processes';

const { freshDir, cleanup } = e2eSandbox();
const holders: Server[] = [];
afterAll(async () => {
  for (const h of holders) await new Promise((r) => h.close(r));
  await cleanup(10_000);
}, 60_000);

async function holdPort(): Promise<number> {
  const srv = createServer();
  holders.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return (srv.address() as { port: number }).port;
}

describe('npm start on a taken port', { timeout: 60_000 }, () => {
  for (const name of ['PORT', 'DYNAMODB_PORT'] as const) {
    it(`${name} taken: a clear message and exit 1, before Java starts or a workspace is seeded`, async () => {
      const port = await holdPort();
      const dataDir = freshDir(`port-${name.toLowerCase()}`);
      const res = await run('dev/start.ts', [], dataDir, {
        watchJavaFor: dataDir,
        timeoutMs: 30_000,
        env: { [name]: String(port), ...(name === 'DYNAMODB_PORT' && { PORT: '0' }) },
      });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`${name}=${port}: port ${port} on 127.0.0.1 is already in use`);
      expect(res.stderr).toContain(`set ${name} to another port; nothing was started`);
      expect(res.stdout).not.toContain('DynamoDB Local');
      expect(res.stdout).not.toContain('seeded');
      expect(res.otherJava).toEqual([]);
      expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
      expect(existsSync(join(dataDir, 'dynamodb')) ? readdirSync(join(dataDir, 'dynamodb')) : []).toEqual([]);
      expect(processesMentioning(dataDir)).toEqual([]);
    });
  }

  it('a DYNAMODB_PORT that is not a port number is refused before anything starts', async () => {
    const dataDir = freshDir('port-bad');
    const res = await run('dev/start.ts', [], dataDir, { env: { DYNAMODB_PORT: '99999', PORT: '0' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('DYNAMODB_PORT must be a port number, got "99999"');
  });
});
