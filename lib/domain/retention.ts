/**
 * Retention rules (GDPR article 5: kept no longer than needed). Two workspace rules, both off by
 * default: erase candidates N days after they were rejected (their entry into `rejected`), and
 * erase candidates with no change for N days (their `updated_at`). A run finds the matches on the
 * indexes (lib/store/retention.ts) and erases each one as the actor `system` with the rule's name,
 * which its receipt keeps (so each erasure's audit record names them). The daily scheduled
 * function runs every listed workspace; `npm start` runs them on a timer; the admin CLI runs one
 * workspace on demand, or counts without erasing (`--dry-run`), as the console's preview does.
 */
import { ERASURE_FOLLOW_UP_KIND, RETENTION_RULES, type RetentionRule } from '../model';
import { logger } from '../logger';
import { recentErasures } from '../store/erasure';
import { countOf } from '../store/scrub';
import { matchingCandidates, workspacesWithRetention, type RetentionDays } from '../store/retention';
import { getStatsItem } from '../store/stats';
import type { RetentionPreview } from '../schemas';
import { eraseCandidateAs, RESWEEP_ACTOR, runErasureFollowUps, sweepAgain } from './erasure';
import { putAudit } from '../store/audit';
import { retentionOf } from '../store/retention';
import { NotFoundError } from '../errors';
import { personOfCandidate, queryPersonCandidates } from '../store/people';
import { personExpired } from './people-rules';

const DAY_MS = 86_400_000;
/** Erasures per workspace and run: a first run over a large backlog goes on the next day. */
export const MAX_ERASURES_PER_RUN = 1_000;
/** What a preview counts at most per rule: enough to warn before saving, bounded in reads. */
export const MAX_PREVIEW = 10_000;
/**
 * Erasures this recent have their copies swept again on each run, beside each erasure's own
 * follow-up a minute after it: a backstop for copies found by neither (older copies known only
 * to the eventually consistent copy index).
 */
const RESWEEP_MS = 2 * DAY_MS;

export const cutoffOf = (days: number, nowMs: number) => new Date(nowMs - days * DAY_MS).toISOString();

export interface RetentionRun {
  tenant_id: string;
  dry_run: boolean;
  rules: RetentionDays;
  /**
   * Candidates each rule matched (not yet erased); one matched by both counts under the first. On a
   * dry run, only those the run would erase (their person's most recent candidate matches too).
   */
  matched: Record<RetentionRule, number>;
  /** The erasures made, each with the rule that made it (actor `system`). Empty on a dry run. */
  erased: { id: string; rule: RetentionRule; erased_at: string }[];
  /** Copies of recent erasures found and scrubbed again. */
  resweep: number;
  /** True when more matched than one run erases; the next run goes on. */
  capped: boolean;
}

/** The matches of each rule at `nowMs`, a candidate counted once (under the first rule). */
async function matches(tenantId: string, rules: RetentionDays, nowMs: number, limit: number) {
  const seen = new Set<string>();
  const byRule = {} as Record<RetentionRule, string[]>;
  for (const rule of RETENTION_RULES) {
    const days = rules[rule];
    byRule[rule] =
      days === null ? [] : (await matchingCandidates(tenantId, rule, cutoffOf(days, nowMs), limit)).filter((id) => !seen.has(id));
    for (const id of byRule[rule]) seen.add(id);
  }
  return byRule;
}

/** Whether erasing the candidate `id` by `rule` is allowed by their person (none: allowed); `people` caches each person's candidates. */
async function personAllows(
  tenantId: string,
  id: string,
  rule: RetentionRule,
  cutoff: string,
  people = new Map<string, ReturnType<typeof queryPersonCandidates>>(),
): Promise<boolean> {
  const personId = await personOfCandidate(tenantId, id);
  if (!personId) return true;
  if (!people.has(personId)) people.set(personId, queryPersonCandidates(tenantId, personId));
  return personExpired(await people.get(personId)!, rule, cutoff);
}

/** Matches read at once by a dry run. */
const JUDGED_AT_ONCE = 16;

/**
 * The matches the run would erase: those whose person's most recent candidate matches the rule
 * too (a GetItem per match and a Query per person, JUDGED_AT_ONCE at a time).
 */
async function wouldErase(tenantId: string, byRule: Record<RetentionRule, string[]>, rules: RetentionDays, nowMs: number) {
  const people = new Map<string, ReturnType<typeof queryPersonCandidates>>();
  const out = {} as Record<RetentionRule, string[]>;
  for (const rule of RETENTION_RULES) {
    const cutoff = cutoffOf(rules[rule] ?? 0, nowMs);
    const ids = byRule[rule];
    const allowed: boolean[] = [];
    for (let i = 0; i < ids.length; i += JUDGED_AT_ONCE) {
      allowed.push(...(await Promise.all(ids.slice(i, i + JUDGED_AT_ONCE).map((id) => personAllows(tenantId, id, rule, cutoff, people)))));
    }
    out[rule] = ids.filter((_, i) => allowed[i]);
  }
  return out;
}

/** Run a workspace's rules at `nowMs`; a dry run only counts. */
export async function runRetention(
  tenantId: string,
  opts: { dryRun?: boolean; nowMs?: number; rules?: RetentionDays } = {},
): Promise<RetentionRun> {
  const nowMs = opts.nowMs ?? Date.now();
  const rules = opts.rules ?? retentionOf(await statsItem(tenantId));
  const byRule = await matches(tenantId, rules, nowMs, opts.dryRun ? MAX_PREVIEW : MAX_ERASURES_PER_RUN + 1);
  // A dry run counts what the run would erase: it judges each match's person as the run does.
  const counted = opts.dryRun ? await wouldErase(tenantId, byRule, rules, nowMs) : byRule;
  const matched = Object.fromEntries(RETENTION_RULES.map((r) => [r, counted[r].length])) as Record<RetentionRule, number>;
  const run: RetentionRun = { tenant_id: tenantId, dry_run: !!opts.dryRun, rules, matched, erased: [], resweep: 0, capped: false };
  if (opts.dryRun) return { ...run, capped: RETENTION_RULES.some((r) => byRule[r].length >= MAX_PREVIEW) };
  const todo = RETENTION_RULES.flatMap((rule) => byRule[rule].map((id) => ({ id, rule })));
  run.capped = todo.length > MAX_ERASURES_PER_RUN;
  // Sweep first: the erasures this run makes sweep their own copies.
  for (const id of await recentErasures(tenantId, new Date(nowMs - RESWEEP_MS).toISOString())) {
    const swept = await sweepAgain(tenantId, id, (added) => ({
      action: 'candidate.erasure_swept',
      actor: RESWEEP_ACTOR,
      target: { type: 'candidate', id },
      changes: [{ field: 'scrubbed', after: added }],
    }));
    run.resweep += swept ? countOf(swept.added) : 0;
  }
  for (const { id, rule } of todo.slice(0, MAX_ERASURES_PER_RUN)) {
    try {
      // Erasing a candidate erases their person: only when the person's most recent candidate matches too.
      if (!(await personAllows(tenantId, id, rule, cutoffOf(rules[rule] ?? 0, nowMs)))) continue;
      const { receipt, first } = await eraseCandidateAs(tenantId, id, { type: 'system', rule });
      if (first) run.erased.push({ id, rule, erased_at: receipt.erased_at });
    } catch (err) {
      // Deleted meanwhile: nothing left to erase.
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  // The run itself, beside each erasure's own record: what the rules matched and erased.
  await putAudit(tenantId, {
    action: 'retention.run',
    actor: { type: 'system', id: 'retention', name: 'retention run' },
    target: { type: 'workspace', id: tenantId },
    changes: [
      { field: 'rules', after: rules },
      { field: 'matched', after: matched },
      { field: 'erased', after: run.erased.length },
      { field: 'resweep', after: run.resweep },
      { field: 'capped', after: run.capped },
    ],
  });
  return run;
}

/**
 * The scheduled function (functions/retention.ts): every workspace's rules, the totals logged;
 * or, for the every-minute event (`kind` ERASURE_FOLLOW_UP_KIND), the erasures' due follow-ups.
 */
export async function retention(event?: unknown) {
  if ((event as { kind?: unknown } | undefined)?.kind === ERASURE_FOLLOW_UP_KIND) {
    const done = await runErasureFollowUps();
    if (done.swept) logger.info('erasure follow-ups done', done);
    return done;
  }
  const total = await runAllRetention();
  logger.info('retention runs done', total);
  return total;
}

/** Every workspace with a rule on: the scheduled function's work. Counts only in the log. */
export async function runAllRetention(nowMs = Date.now()): Promise<{ workspaces: number; erased: number; resweep: number }> {
  const total = { workspaces: 0, erased: 0, resweep: 0 };
  for (const tenantId of await workspacesWithRetention()) {
    const run = await runRetention(tenantId, { nowMs });
    total.workspaces++;
    total.erased += run.erased.length;
    total.resweep += run.resweep;
    logger.info('retention run', {
      tenant_id: tenantId,
      erased: run.erased.length,
      by_rule: Object.fromEntries(RETENTION_RULES.map((r) => [r, run.erased.filter((e) => e.rule === r).length])),
      resweep: run.resweep,
      capped: run.capped,
    });
  }
  return total;
}

async function statsItem(tenantId: string) {
  const stats = await getStatsItem(tenantId);
  if (!stats.exists) throw new NotFoundError('workspace');
  return stats.item;
}

/** The console's preview before saving rules: how many candidates the next run would erase. */
export async function previewRetention(tenantId: string, rules: RetentionDays, nowMs = Date.now()): Promise<RetentionPreview> {
  const run = await runRetention(tenantId, { dryRun: true, rules, nowMs });
  const total = RETENTION_RULES.reduce((n, r) => n + run.matched[r], 0);
  return { ...run.matched, total, capped: run.capped };
}
