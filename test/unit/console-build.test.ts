/** `npm start`'s console build: built when stale, skipped when fresh, and a failure is reported, never thrown. */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../console/build';

const root = mkdtempSync(join(tmpdir(), 'tp-console-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function app(dir: string, main: string) {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title><script type="module" src="/src/main.ts"></script>');
  writeFileSync(join(dir, 'src', 'main.ts'), main);
}

describe('ensureConsoleBuilt', () => {
  it('builds a missing dist, skips a fresh one, rebuilds after a source changes', async () => {
    const dir = join(root, 'ok');
    app(dir, 'document.title = "built";\n');
    expect(await ensureConsoleBuilt({ root: dir })).toMatchObject({ status: 'built' });
    expect(existsSync(join(dir, 'dist', 'index.html'))).toBe(true);
    expect(await ensureConsoleBuilt({ root: dir })).toMatchObject({ status: 'fresh' });
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'src', 'main.ts'), later, later);
    expect(await ensureConsoleBuilt({ root: dir })).toMatchObject({ status: 'built' });
  });

  it('rebuilds after a server module the console imports changes (lib/csv.ts, lib/model.ts)', async () => {
    const dir = join(root, 'shared', 'console');
    mkdirSync(join(root, 'shared', 'lib'), { recursive: true });
    writeFileSync(join(root, 'shared', 'lib', 'csv.ts'), 'export const cell = (v: string) => v;\n');
    app(dir, "import { cell } from '../../lib/csv';\ndocument.title = cell('built');\n");
    expect(await ensureConsoleBuilt({ root: dir })).toMatchObject({ status: 'built' });
    expect(await ensureConsoleBuilt({ root: dir })).toMatchObject({ status: 'fresh' });
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'shared', 'lib', 'csv.ts'), later, later);
    expect(await ensureConsoleBuilt({ root: dir })).toMatchObject({ status: 'built' });
  });

  it('reports a broken build as failed with the reason instead of throwing', async () => {
    const dir = join(root, 'broken');
    app(dir, 'import { nothing } from "./does-not-exist";\nconsole.log(nothing);\n');
    const r = await ensureConsoleBuilt({ root: dir });
    expect(r.status).toBe('failed');
    expect(r.status === 'failed' && r.error).toMatch(/does-not-exist/);
  });
});
