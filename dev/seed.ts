/**
 * Demo workspace for local runs. Ids are fixed so that the sample events in events/ refer to
 * real records; stage entry times are relative to the first start so some candidates are stuck.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../lib/auth/password';
import { ConflictError, NotFoundError } from '../lib/errors';
import { createUser, setPassword } from '../lib/store/users';
import { insertCandidate } from '../lib/store/candidates';
import { createRequisition } from '../lib/store/requisitions';
import { createTenant, getTenantBySlug, type Tenant } from '../lib/store/tenants';
import { createToken } from '../lib/store/tokens';
import { DEMO, demoCandidateId } from './demo-data';

export { DEMO, demoCandidateId };

const tokenFile = (dir: string) => join(dir, 'demo-token');
export const loginFile = (dir: string) => join(dir, 'demo-login.json');

/** Create the demo workspace on first start; always return a full-access demo token. */
export async function seedDemo(dir: string): Promise<{ token: string; login: DemoLogin; created: boolean; tenant: Tenant }> {
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
  return { ...(await demoToken(dir, tenant, created)), ...(await demoLogin(dir, tenant, created)), created, tenant };
}

/** Full-access demo token, kept in DATA_DIR so every start can print it. */
async function demoToken(dir: string, tenant: Tenant, fresh: boolean) {
  if (!fresh && existsSync(tokenFile(dir))) return { token: readFileSync(tokenFile(dir), 'utf8').trim() };
  const { token } = await createToken(tenant, 'demo (npm start)', ['*']);
  writeSecret(tokenFile(dir), token);
  return { token };
}

/** The demo workspace's admin user, with a random password kept in DATA_DIR. */
async function demoLogin(dir: string, tenant: Tenant, fresh: boolean) {
  const file = loginFile(dir);
  if (!fresh && existsSync(file)) return { login: JSON.parse(readFileSync(file, 'utf8')) as DemoLogin };
  const login: DemoLogin = { email: DEMO.adminEmail, password: randomBytes(12).toString('base64url') };
  try {
    await createUser(tenant.id, login.email, await hashPassword(login.password), 'admin', { id: DEMO.adminUserId });
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    // The login file was removed: give the existing demo admin a new password.
    await setPassword(login.email, await hashPassword(login.password));
  }
  writeSecret(file, JSON.stringify(login));
  return { login };
}

export interface DemoLogin {
  email: string;
  password: string;
}

function writeSecret(file: string, value: string) {
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
