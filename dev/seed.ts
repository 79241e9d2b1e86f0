/**
 * Demo workspace for local runs. Ids are fixed so that the sample events in events/ refer to
 * real records; creation, stage entry and history times are relative to the first start, so some
 * candidates are stuck and every candidate's history agrees with its days in stage (demoHistory).
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../lib/auth/password';
import { ConflictError, NotFoundError } from '../lib/errors';
import { createUser, setPassword } from '../lib/store/users';
import { insertCandidate } from '../lib/domain/candidate-writes';
import { createRequisition } from '../lib/store/requisitions';
import { createTenant, getTenantBySlug, type Tenant } from '../lib/store/tenants';
import { createToken } from '../lib/store/tokens';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../lib/store/client';
import { stageMovePut } from '../lib/store/stage-history';
import { DEMO, demoCandidateId, demoHistory } from './demo-data';

export { DEMO, demoCandidateId };

const tokenFile = (dir: string) => join(dir, 'demo-token');
export const loginFile = (dir: string) => join(dir, 'demo-login.json');

/** Create the demo workspace on first start; always return a full-access demo token. */
export async function seedDemo(dir: string): Promise<{ token: string; login: DemoLogin; created: boolean; tenant: Tenant }> {
  let tenant: Tenant;
  let created = false;
  let newLogin: Promise<NewLogin> | undefined;
  try {
    tenant = await getTenantBySlug(DEMO.slug);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    tenant = await createTenant(DEMO.slug, DEMO.name, DEMO.tenantId);
    // The new admin's password is hashed (most of a second of CPU at the deployed cost, on the
    // thread pool) while the candidates are written, not after them.
    newLogin = newDemoLogin();
    for (const { id, ...req } of DEMO.requisitions) await createRequisition(tenant.id, req, id);
    const now = Date.now();
    // The moves are the demo admin's, as if made in the console.
    const actor = { type: 'user' as const, id: DEMO.adminUserId, email: DEMO.adminEmail };
    await writeDemoCandidates(tenant.id, { now, actor, candidateId: demoCandidateId, reqId: (r) => DEMO.requisitions[r]?.id });
    created = true;
  }
  return { ...(await demoToken(dir, tenant, created)), ...(await demoLogin(dir, tenant, created, newLogin)), created, tenant };
}

/**
 * The demo's candidates with their stage histories, written into a workspace whose requisitions
 * exist: by `npm start`'s seed (fixed ids) and by the browser tests' seeded workspaces (new ids).
 */
export async function writeDemoCandidates(
  tenantId: string,
  o: {
    now: number;
    actor: { type: 'user'; id: string; email: string };
    candidateId: (index: number) => string;
    /** The workspace's id of the demo requisition at this index (undefined: no requisition). */
    reqId: (reqIndex: number) => string | undefined;
  },
) {
  await Promise.all(
    DEMO.candidates.map(async ([name, reqIndex, stage], i) => {
      const id = o.candidateId(i);
      const { created_at, stage_entered_at, moves } = demoHistory(i, o.now);
      const req = DEMO.requisitions[reqIndex];
      await insertCandidate(tenantId, {
        id,
        name,
        email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
        phone: `+1 555 01${String(i).padStart(2, '0')}`,
        stage,
        req_id: req && o.reqId(reqIndex),
        req_title: req?.title,
        created_at,
        updated_at: stage_entered_at,
        stage_entered_at,
      });
      if (moves.length) {
        await ddb.send(
          new TransactWriteCommand({
            TransactItems: moves.map((m) =>
              stageMovePut(tenantId, { candidate_id: id, from_stage: m.from, to_stage: m.to, at: m.at, actor: o.actor }),
            ),
          }),
        );
      }
    }),
  );
}

/** Full-access demo token, kept in DATA_DIR so every start can print it. */
async function demoToken(dir: string, tenant: Tenant, fresh: boolean) {
  if (!fresh && existsSync(tokenFile(dir))) return { token: readFileSync(tokenFile(dir), 'utf8').trim() };
  const { token } = await createToken(tenant, 'demo (npm start)', ['*']);
  writeSecret(tokenFile(dir), token);
  return { token };
}

interface NewLogin {
  login: DemoLogin;
  hash: string;
}

/** A new random password for the demo admin, and its hash. */
function newDemoLogin(): Promise<NewLogin> {
  const login: DemoLogin = { email: DEMO.adminEmail, password: randomBytes(12).toString('base64url') };
  const made = hashPassword(login.password).then((hash) => ({ login, hash }));
  // Awaited by demoLogin; a seed that fails before then must not end the process over this too.
  made.catch(() => {});
  return made;
}

/** The demo workspace's admin user, with a random password kept in DATA_DIR. */
async function demoLogin(dir: string, tenant: Tenant, fresh: boolean, started?: Promise<NewLogin>) {
  const file = loginFile(dir);
  if (!fresh && existsSync(file)) return { login: JSON.parse(readFileSync(file, 'utf8')) as DemoLogin };
  const { login, hash } = await (started ?? newDemoLogin());
  try {
    await createUser(tenant.id, login.email, hash, 'admin', { id: DEMO.adminUserId });
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    // The login file was removed: give the existing demo admin a new password.
    await setPassword(login.email, hash);
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
