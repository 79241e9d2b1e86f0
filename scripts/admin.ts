/**
 * Admin CLI for scripting. Local by default (the data of `npm start`, or DATA_DIR); with
 * `--table <name>` or TABLE_NAME it acts on a deployed table using the AWS credentials of the
 * environment. Output is only the requested value on stdout; messages go to stderr.
 */
import { parseArgs } from 'node:util';
import '../dev/quiet-sdk';
import '../dev/untraced';
import { PASSWORD_MAX, PASSWORD_MIN } from '../lib/auth/password';
import {
  CREATE_STATUSES,
  DEFAULT_STUCK_DAYS,
  JOB_TYPES,
  MAX_HEADCOUNT,
  ROLES,
  roleFrom,
  SCOPES,
  type Scope,
  type Stage,
} from '../lib/model';
import { CreateRequisitionBody } from '../lib/schemas';

const USAGE = `Usage:
  admin tenant create <slug> [--name <name>]                 prints the tenant id
  admin tenant set-stuck-days <slug> <stage=days,...>        overrides stuck thresholds
  admin token create <slug> --scopes <scope,scope|*> [--name <label>] [--expires-in-days <n>]
        prints only the token, a workspace token; it expires after the workspace's default token
        lifetime (90 days unless an admin changed it), or after n days, at most the workspace's maximum
  admin user create <slug> <email> --password <pw> [--role admin|recruiter|hiring_manager|interviewer]   prints the user id
  admin requisition create <slug> --title <title> [--department <d>] [--location <l>]
        [--job-type ${JOB_TYPES.join('|')}] [--headcount <1-${MAX_HEADCOUNT}>]
        [--status ${CREATE_STATUSES.join('|')}]        prints only the new id (the API's rules)
  admin search reindex <slug>                                backfills the search index and board
        index (GSI5) from the workspace's candidates; idempotent, progress on stderr
  admin webhooks recount <slug>                              derives the workspace's count of active
        webhook endpoints afresh from its endpoints; prints it
  admin audit migrate <slug>|--all                           moves the audit log's records of the
        four-copy layout to one item per record (run once after deploying); idempotent, resumable,
        progress on stderr; prints what it did, as JSON
  admin audit settle <slug>|--all                            expands audit intents the stream no
        longer holds (after a consumer outage); idempotent; prints the intents read and records written
  admin stats shard <slug>|--all                             spreads the workspace's counters over
        their shards (workspaces made before them; run once after deploying); idempotent; prints
        each workspace's outcome (sharded, already, missing), as JSON
  admin retention run <slug> [--dry-run]                     runs the workspace's retention rules now
        (as the daily run does); prints what each rule matched and erased, as JSON (ids, no personal
        data); --dry-run counts only
Options:
  --table <name>   act on a deployed table (AWS credentials from the environment);
                   TABLE_NAME does the same. Default: the local data directory (DATA_DIR, .data).
  --region <r>     the deployed table's region (or AWS_REGION / AWS_DEFAULT_REGION); required
                   with --table, so a command never lands in another region's table.
Scopes: ${SCOPES.join(', ')}`;

class UsageError extends Error {}

/** `requisition create`'s options through the API's body schema; its first refusal is the usage error. */
function requisitionArgs(values: Record<string, string | boolean | undefined>) {
  const headcount =
    values.headcount === undefined
      ? undefined
      : /^\d+$/.test(String(values.headcount))
        ? Number(values.headcount)
        : String(values.headcount);
  const body = Object.fromEntries(
    Object.entries({
      title: values.title,
      department: values.department,
      location: values.location,
      job_type: values['job-type'],
      headcount,
      status: values.status,
    }).filter(([, v]) => v !== undefined),
  );
  const result = CreateRequisitionBody.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  const option = `--${field.replace('_', '-')}`;
  // The schema's messages start with the field's name ("status must be one of …"): say the option's.
  throw new UsageError(
    issue.message.startsWith(`${field} `) ? `${option}${issue.message.slice(field.length)}` : `${option}: ${issue.message}`,
  );
}

const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
function slugArg(value: string | undefined): string {
  if (!value) throw new UsageError('missing <slug>');
  if (!SLUG_RE.test(value)) throw new UsageError(`invalid slug "${value}": use a-z, 0-9 and -, at most 63 characters`);
  return value;
}

function textOpt(name: string, value: string | undefined, required = false): string | undefined {
  if (value === undefined) {
    if (required) throw new UsageError(`missing --${name}`);
    return undefined;
  }
  const v = value.trim();
  if (!v || v.length > 200) throw new UsageError(`--${name} must be 1 to 200 characters`);
  return v;
}

/** `--expires-in-days`: a whole number of days; the workspace's maximum is checked against the table. */
function parseDays(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,4}$/.test(value.trim()) || Number(value) < 1)
    throw new UsageError('--expires-in-days must be a whole number of days, 1 or more');
  return Number(value);
}

function parseScopes(value: string | undefined): Scope[] {
  if (!value) throw new UsageError('missing --scopes');
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (!scopes.length || bad.length) {
    throw new UsageError(`unknown scope ${bad.map((b) => `"${b}"`).join(', ') || '(none given)'}; use ${SCOPES.join(', ')}`);
  }
  return [...new Set(scopes)] as Scope[];
}

function parseStuckDays(value: string | undefined): Partial<Record<Stage, number>> {
  if (!value) throw new UsageError('missing <stage=days,...>');
  const out: Partial<Record<Stage, number>> = {};
  for (const pair of value.split(',')) {
    const [stage, days] = pair.split('=');
    if (!(stage! in DEFAULT_STUCK_DAYS)) {
      throw new UsageError(`"${stage}" cannot be stuck; use one of ${Object.keys(DEFAULT_STUCK_DAYS).join(', ')}`);
    }
    const n = Number(days);
    if (!Number.isInteger(n) || n < 0 || n > 365) throw new UsageError(`days for ${stage} must be an integer 0-365 (0 = never stuck)`);
    out[stage as Stage] = n;
  }
  return out;
}

function userArgs(email: string | undefined, password: string | undefined, roleName = 'recruiter') {
  if (!email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) throw new UsageError('missing or invalid <email>');
  if (!password) throw new UsageError('missing --password');
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new UsageError(`--password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
  // `member` (the one role before roles were split) is still taken, as the recruiter it now is.
  const role = roleFrom(roleName);
  if (!role) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return { email, password, role };
}

async function main(argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      scopes: { type: 'string' },
      title: { type: 'string' },
      department: { type: 'string' },
      location: { type: 'string' },
      'job-type': { type: 'string' },
      headcount: { type: 'string' },
      status: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      'expires-in-days': { type: 'string' },
      table: { type: 'string' },
      region: { type: 'string' },
      'dry-run': { type: 'boolean' },
      all: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [entity, action, ...rest] = positionals;
  if (values.help || !entity) throw new UsageError('');
  const command = `${entity} ${action ?? ''}`.trim();
  const known = [
    'tenant create',
    'tenant set-stuck-days',
    'token create',
    'requisition create',
    'user create',
    'search reindex',
    'webhooks recount',
    'retention run',
    'audit migrate',
    'audit settle',
    'stats shard',
  ];
  if (!known.includes(command)) throw new UsageError(`unknown command "${command}"`);
  if (values['dry-run'] && command !== 'retention run') throw new UsageError('--dry-run applies only to retention run');
  const everyWorkspace = (command.startsWith('audit ') || command === 'stats shard') && values.all === true;
  if (values.all && !everyWorkspace) throw new UsageError('--all applies only to audit migrate, audit settle and stats shard');
  if (everyWorkspace && rest.length) throw new UsageError('give a <slug> or --all, not both');
  const slug = everyWorkspace ? '' : slugArg(rest[0]);
  const maxPositionals = command === 'tenant set-stuck-days' || command === 'user create' ? 2 : 1;
  if (rest.length > maxPositionals) throw new UsageError(`unexpected argument "${rest[maxPositionals]}"`);

  // Validate everything before touching any database.
  const name = textOpt('name', values.name);
  const scopes = command === 'token create' ? parseScopes(values.scopes) : [];
  if (values['expires-in-days'] !== undefined && command !== 'token create')
    throw new UsageError('--expires-in-days applies only to token create');
  const expiresInDays = parseDays(values['expires-in-days']);
  const stuck = command === 'tenant set-stuck-days' ? parseStuckDays(rest[1]) : {};
  if (command === 'requisition create' && values.title === undefined) throw new UsageError('missing --title');
  // The API's own schema: the CLI creates what POST /api/v1/requisitions would, with the same rules.
  const requisition = command === 'requisition create' ? requisitionArgs(values) : undefined;
  const user = command === 'user create' ? userArgs(rest[1], values.password, values.role) : undefined;

  const table = values.table ?? process.env.TABLE_NAME;
  let local: { stop(): Promise<void> } | undefined;
  if (table) {
    // lib/config.ts falls back to us-east-1 when AWS_REGION is unset (fine inside Lambda, which
    // always sets it); from a laptop that would silently aim at the wrong region.
    const region = values.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
    if (!region) throw new UsageError("--table needs the table's region: --region <region> (or AWS_REGION)");
    process.env.AWS_REGION = region;
    process.env.TABLE_NAME = table;
    delete process.env.DYNAMODB_ENDPOINT;
  } else {
    if (values.region) throw new UsageError('--region applies only with --table');
    const { useLocalTable } = await import('../dev/runtime');
    local = await useLocalTable();
  }
  try {
    const tenants = await import('../lib/store/tenants');
    switch (command) {
      case 'tenant create':
        return (await tenants.createTenant(slug, name ?? slug)).id;
      case 'tenant set-stuck-days': {
        const { cliSetStuckDays } = await import('../lib/domain/admin-cli');
        return JSON.stringify(await cliSetStuckDays(slug, stuck));
      }
      case 'search reindex': {
        const tenant = await tenants.getTenantBySlug(slug);
        const { reindexTenant } = await import('../lib/store/search');
        const done = await reindexTenant(tenant.id, (p) =>
          process.stderr.write(`reindexed ${p.candidates} candidates (${p.written} search items written)\n`),
        );
        return JSON.stringify(done);
      }
      case 'webhooks recount': {
        const tenant = await tenants.getTenantBySlug(slug);
        const { recountActiveEndpoints } = await import('../lib/store/webhook-endpoints');
        return String(await recountActiveEndpoints(tenant.id));
      }
      case 'audit migrate':
      case 'audit settle': {
        const { auditCli } = await import('../lib/domain/audit-migration');
        return JSON.stringify(
          await auditCli(command === 'audit migrate' ? 'migrate' : 'settle', everyWorkspace ? undefined : slug, (line) =>
            process.stderr.write(`${line}\n`),
          ),
        );
      }
      case 'stats shard': {
        const { statsShardCli } = await import('../lib/domain/stats-sharding');
        return JSON.stringify(await statsShardCli(everyWorkspace ? undefined : slug, (line) => process.stderr.write(`${line}\n`)));
      }
      case 'retention run': {
        const tenant = await tenants.getTenantBySlug(slug);
        const { runRetention } = await import('../lib/domain/retention');
        return JSON.stringify(await runRetention(tenant.id, { dryRun: Boolean(values['dry-run']) }));
      }
      case 'user create': {
        const { cliCreateUser } = await import('../lib/domain/admin-cli');
        return (await cliCreateUser(slug, user!.email, user!.password, user!.role)).id;
      }
      case 'token create': {
        const { cliCreateToken } = await import('../lib/domain/admin-cli');
        // With USAGE_PLAN_NAME (<stack>-api-tokens) set, the token gets its rate-limit API key;
        // a deployed token route refuses a token without one (403).
        const { createUsageKey } = await import('../lib/auth/usage-keys');
        const created = await cliCreateToken(slug, name ?? 'cli', scopes, (tenantId, id) => createUsageKey(id, tenantId), expiresInDays);
        process.stderr.write(`workspace token ${created.id} expires at ${created.expires_at}\n`);
        return created.token;
      }
      default: {
        const tenant = await tenants.getTenantBySlug(slug);
        const { createRequisition } = await import('../lib/domain/requisitions');
        const req = await createRequisition({ kind: 'system', tenantId: tenant.id }, requisition!);
        return req.id;
      }
    }
  } finally {
    await local?.stop();
  }
}

main(process.argv.slice(2)).then(
  (out) => {
    process.stdout.write(`${out}\n`);
  },
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      if ((err as Error).message) process.stderr.write(`admin: ${(err as Error).message}\n\n`);
      process.stderr.write(`${USAGE}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`admin: ${(err as Error).message}\n`);
      process.exitCode = 1;
    }
  },
);
