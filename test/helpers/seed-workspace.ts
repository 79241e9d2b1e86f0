/**
 * `node --import tsx test/helpers/seed-workspace.ts --batch` on a running `npm start`'s DATA_DIR:
 * one process per shared browser runtime (test/helpers/browser-runtime.ts), answering one JSON
 * line per JSON argument line (`[label]`), as scripts/invoke.ts's batch does, so a workspace
 * costs a few writes instead of a Node start and lib/'s modules. Each answer's stdout is a
 * `SeededWorkspace`: a fresh workspace holding the demo's requisitions and candidates (with
 * their stage history and people), an admin and a member of every other role, and a
 * full-access token with no recorded creator, as the demo's is.
 *
 * The members' passwords are hashed at the test cost (cheap-hash.ts), as the shared runtimes hash
 * theirs (cheap-runtime-hash.mjs): the runtime verifies them with the real code at the stored N.
 * Nothing may import this module's values: it starts its batch as it loads.
 */
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { DEMO } from '../../dev/demo-data';
import { useLocalTable } from '../../dev/runtime';
import { cheapHash } from './cheap-hash';

export interface SeededWorkspace {
  tenantId: string;
  slug: string;
  name: string;
  /** The workspace's full-access token (no recorded creator) and its name in the tokens list. */
  token: string;
  tokenName: string;
  /** A signed-out member of each role; `admin` is the workspace's admin. */
  members: Record<string, { id: string; email: string; password: string }>;
}

const SEEDED_TOKEN_NAME = 'seeded (browser suite)';

await useLocalTable();
const { newId } = await import('../../lib/ids');
const { ROLES } = await import('../../lib/model');
const { createTenant } = await import('../../lib/store/tenants');
const { createUser } = await import('../../lib/store/users');
const { createToken } = await import('../../lib/store/tokens');
const { createRequisition } = await import('../../lib/store/requisitions');
const { writeDemoCandidates } = await import('../../dev/seed');
const { backfillPeople } = await import('../../dev/backfill');

async function seed(label: string): Promise<SeededWorkspace> {
  const slug = `${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`;
  const tenant = await createTenant(slug, `${label} workspace`);
  const members: SeededWorkspace['members'] = {};
  for (const role of ROLES) {
    const email = `${role.replace('_', '.')}@${slug}.example`;
    const password = randomBytes(12).toString('base64url');
    const user = await createUser(tenant.id, email, cheapHash(password), role);
    members[role] = { id: user.id, email, password };
  }
  const admin = members.admin!;
  const reqIds = DEMO.requisitions.map(() => newId());
  for (const [i, { id: _fixed, ...req }] of DEMO.requisitions.entries()) await createRequisition(tenant.id, req, reqIds[i]);
  const now = Date.now();
  const actor = { type: 'user' as const, id: admin.id, email: admin.email };
  await writeDemoCandidates(tenant.id, { now, actor, candidateId: () => newId(), reqId: (r) => reqIds[r] });
  // Written as the demo's seed writes them (as older data is): each candidate gets its person here.
  await backfillPeople();
  const { token } = await createToken(tenant, SEEDED_TOKEN_NAME, ['*']);
  return { tenantId: tenant.id, slug, name: tenant.name, token, tokenName: SEEDED_TOKEN_NAME, members };
}

// The batch protocol of scripts/invoke.ts (processes.ts startBatch): one JSON line in, one out.
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const [label] = JSON.parse(line) as [string];
  try {
    process.stdout.write(`${JSON.stringify({ code: 0, stdout: JSON.stringify(await seed(label)), stderr: '' })}\n`);
  } catch (err) {
    process.stdout.write(
      `${JSON.stringify({ code: 1, stdout: '', stderr: err instanceof Error ? (err.stack ?? err.message) : String(err) })}\n`,
    );
  }
}
// stdin closed (Batch.close): the SDK's kept-alive sockets would hold the process open.
process.exit(0);
