/**
 * Demo workspace for local runs. Ids are fixed so that the sample events in events/ refer to
 * real records; stage entry times are relative to the first start so some candidates are stuck.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError } from '../../lib/errors';
import { insertCandidate } from '../../lib/store/candidates';
import { createRequisition } from '../../lib/store/requisitions';
import { createTenant, getTenantBySlug, type Tenant } from '../../lib/store/tenants';
import { createToken } from '../../lib/store/tokens';
import { DEMO, demoCandidateId } from './demo-data';

export { DEMO, demoCandidateId };

const tokenFile = (dir: string) => join(dir, 'demo-token');

/** Create the demo workspace on first start; always return a full-access demo token. */
export async function seedDemo(dir: string): Promise<{ token: string; created: boolean; tenant: Tenant }> {
  let tenant: Tenant;
  let created = false;
  try {
    tenant = await getTenantBySlug(DEMO.slug);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    tenant = await createTenant(DEMO.slug, DEMO.name, DEMO.tenantId);
    for (const { id, ...req } of DEMO.requisitions) await createRequisition(tenant.id, req, id);
    const day = 86_400_000;
    await Promise.all(
      DEMO.candidates.map(([name, reqIndex, stage, days], i) => {
        const id = demoCandidateId(i);
        const created_at = new Date(Date.parse(`2026-02-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`)).toISOString();
        const req = DEMO.requisitions[reqIndex];
        const entered = new Date(Date.now() - days * day - 3_600_000).toISOString();
        return insertCandidate(tenant.id, {
          id,
          name,
          email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
          phone: `+1 555 01${String(i).padStart(2, '0')}`,
          stage,
          req_id: req?.id,
          req_title: req?.title,
          created_at,
          updated_at: entered,
          stage_entered_at: entered,
        });
      }),
    );
    created = true;
  }
  if (!created && existsSync(tokenFile(dir))) {
    return { token: readFileSync(tokenFile(dir), 'utf8').trim(), created, tenant };
  }
  const { token } = await createToken(tenant, 'demo (npm start)', ['*']);
  writeFileSync(tokenFile(dir), `${token}\n`);
  chmodSync(tokenFile(dir), 0o600);
  return { token, created, tenant };
}
