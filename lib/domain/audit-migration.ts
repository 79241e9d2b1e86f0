/**
 * The audit log's operator commands (`npm run admin -- audit migrate|settle <slug>|--all`) and
 * `npm start`'s check: the store does the work (lib/store/audit-migrate.ts, audit-expand.ts).
 */
import { auditIntentsOf, settleAuditIntents } from '../store/audit-expand';
import { expandActivity } from './activity';
import { allTenantIds, hasOldAuditCopies, migrateAudit } from '../store/audit-migrate';
import { getTenantBySlug } from '../store/tenants';

/** Migrate (or settle) one workspace by slug, or every workspace; resolves with what each one took. */
export async function auditCli(what: 'migrate' | 'settle', slug: string | undefined, log: (line: string) => void) {
  const ids = slug === undefined ? await allTenantIds() : [(await getTenantBySlug(slug)).id];
  const done: Record<string, unknown> = {};
  for (const [n, id] of ids.entries()) {
    done[id] = what === 'migrate' ? await migrateAudit(id, log) : { ...(await settleAuditIntents(id)), activity: await settleActivity(id) };
    log(`audit ${what}: ${n + 1}/${ids.length} workspaces done`);
  }
  return done;
}

/** The activity feed items the workspace's kept intents stand for and that are missing (the consumer writes the same). */
async function settleActivity(tenantId: string): Promise<number> {
  let written = 0;
  for (const intent of await auditIntentsOf(tenantId)) written += await expandActivity(intent);
  return written;
}

/** `npm start`: migrate the workspaces (`ids`: allTenantIds) that still hold old copies (one Query each to tell). */
export async function migrateOldAuditCopies(ids: string[], log: (line: string) => void): Promise<number> {
  let migrated = 0;
  for (const id of ids) {
    if (!(await hasOldAuditCopies(id))) continue;
    await migrateAudit(id, log);
    migrated++;
  }
  return migrated;
}
