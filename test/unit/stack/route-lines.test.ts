/**
 * The permission table in Lambda bundles (lib/route-lines.ts, infra/constructs/table-function.ts
 * lambdaDefine): each function carries the lines of the routes it serves, exactly as
 * lib/permissions.ts ROUTE_ROLES has them, and not the whole table (~4 KB of every API function).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { routeLinesOf } from '../../../infra/constructs/table-function';
import { ROUTE_ROLES } from '../../../lib/permissions';
import { ROUTE_LINES } from '../../../lib/route-lines';
import { routes } from '../../../lib/routes';
import { esbuildOptions } from '../../../scripts/bench/bundles';

const out = mkdtempSync(join(tmpdir(), 'tp-route-lines-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('permission lines per bundle', () => {
  it('unbundled, the boundary reads the whole table', () => {
    expect(ROUTE_LINES).toBe(ROUTE_ROLES);
  });

  it("each module's lines are its routes' (twins included), as the table has them, and nothing else", () => {
    const table = ROUTE_ROLES as Readonly<Record<string, readonly string[]>>;
    const modules = new Set(routes.map((r) => r.handler));
    const seen = new Set<string>();
    for (const module of modules) {
      const lines = routeLinesOf(module);
      const own = routes.filter((r) => r.handler === module).map((r) => `${r.method} ${r.path}`);
      expect(Object.keys(lines).sort(), module).toEqual(own.filter((name) => name in table).sort());
      for (const [name, roles] of Object.entries(lines)) {
        expect(roles, name).toEqual(table[name]);
        seen.add(name);
      }
    }
    // Every line of the table reaches the bundle of the function serving it.
    expect([...seen].sort()).toEqual(Object.keys(table).sort());
    expect(routeLinesOf('update-candidate')).toEqual({
      'PATCH /api/v1/candidates/{id}': ['admin', 'recruiter'],
      'PATCH /api/candidates/{id}': ['admin', 'recruiter'],
    });
  });

  it('a bundle holds its own lines and no other route’s', async () => {
    const outfile = join(out, 'update-candidate.mjs');
    await build({ ...esbuildOptions('update-candidate'), outfile });
    const code = readFileSync(outfile, 'utf8');
    expect(code).toContain('"PATCH /api/v1/candidates/{id}":["admin","recruiter"]');
    for (const other of ['GET /api/v1/candidates', 'POST /api/webhooks/{id}/replay', 'POST /api/v1/candidates/{id}/erase'])
      expect(code, other).not.toContain(`"${other}"`);
  });
});
