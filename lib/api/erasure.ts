/**
 * Erasing a candidate: its route and receipt. Apart from lib/api/candidates.ts so that only
 * erase-candidate bundles them (a schema built at load time stays in every bundle that imports
 * its module).
 */
import * as z from 'zod/mini';
import { SCRUBBED_KINDS } from '../model';
import { IdParam, dataOf, timestamp } from './fields';
import type { Route } from './route';

/** How many stored items of each kind an erasure scrubbed (lib/store/erasure.ts SCRUBBED_KINDS). */
export const ScrubCounts = z.object(
  Object.fromEntries(SCRUBBED_KINDS.map((k) => [k, z.int()])) as Record<(typeof SCRUBBED_KINDS)[number], z.ZodMiniInt>,
);

/** The answer to an erasure; a later call answers it with what its sweep found added to the counts. */
export const ErasureReceipt = z.object({
  id: z.uuid(),
  erased_at: timestamp,
  scrubbed: ScrubCounts,
  /**
   * The candidate's person, erased with it: their id, how many of their candidates the erasure
   * erased (this one included; each has its own receipt) and how many of the person's own items
   * (the person, their email claims, their partition's items) it deleted. Null for a candidate
   * without a person.
   */
  person: z.nullable(
    z.object({
      id: z.uuid(),
      candidates: z.int(),
      items: z.int(),
      /** The person's files whose bytes (every version) and extracted text the erasure deleted. */
      files: z.optional(z.int()),
    }),
  ),
});
export type ErasureReceipt = z.infer<typeof ErasureReceipt>;

// ---- routes ------------------------------------------------------------------------------

export const eraseCandidate = {
  method: 'POST',
  path: '/api/v1/candidates/{id}/erase',
  // In the console, only admins erase.
  console: { role: 'admin' },
  handler: 'erase-candidate',
  auth: 'token',
  scope: 'candidates:erase',
  access: 'write',
  // Erasing the person deletes their files' objects.
  files: ['delete'],
  summary: "Erase a candidate's personal data everywhere; answers a receipt",
  params: IdParam,
  status: 200,
  response: dataOf(ErasureReceipt),
  timeoutSeconds: 28,
} as const satisfies Route;
