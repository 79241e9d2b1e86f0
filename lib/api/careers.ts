/**
 * The careers site: a workspace's open jobs and each job's page as HTML (lib/careers/page.ts),
 * public like the board (lib/api/boards.ts) and cached at the edge for as long. Their answers are
 * HTML, not JSON: the `response` below is the page as one string. Any unknown slug or job, and a
 * workspace with nothing posted, answers the same 404 page.
 */
import * as z from 'zod/mini';
import { BoardJobParams, BoardParams } from './boards';
import { uuid } from './fields';
import { DOCS, type Route } from './route';

/**
 * Not strict: a careers link carries tracking parameters (`utm_*` and the like), which must not
 * turn the page into the not-found page; they are dropped unread. `src` is read by the handler
 * and kept only when it is a valid source tag, then carried on to each job's page.
 */
export const CareersQuery = z.object({ cursor: z.optional(uuid('cursor')), src: z.optional(z.string()) });

const PAGE = z.string();
const NOT_MODIFIED = DOCS ? 'Not Modified: If-None-Match named the current ETag (no body)' : '';
const NOT_FOUND = DOCS ? 'The not-found page (HTML): unknown slug or job, nothing posted, unpublished, or the requisition is not open' : '';

export const careersPage = {
  method: 'GET',
  path: '/careers/{slug}',
  handler: 'careers-page',
  auth: 'none',
  access: 'read',
  etag: true,
  html: true,
  summary: DOCS && "A workspace's careers page: its open jobs as HTML, each a link to its page (public)",
  params: BoardParams,
  query: CareersQuery,
  ...(DOCS && { errors: { 304: NOT_MODIFIED, 404: NOT_FOUND } }),
  status: 200,
  response: PAGE,
} as const satisfies Route;

export const careersJobPage = {
  method: 'GET',
  path: '/careers/{slug}/jobs/{id}',
  handler: 'careers-job-page',
  auth: 'none',
  formToken: 'issue',
  access: 'read',
  etag: true,
  html: true,
  summary: DOCS && 'A job page as HTML, with its JobPosting structured data and its application form (public)',
  params: BoardJobParams,
  // No query schema: `?src=<tag>` (read by the handler, kept only when a valid source tag) and any
  // tracking parameter a link carries must not turn the page into the not-found page.
  ...(DOCS && { errors: { 304: NOT_MODIFIED, 404: NOT_FOUND } }),
  status: 200,
  response: PAGE,
} as const satisfies Route;

/**
 * The withdraw link of an applicant's confirmation email (lib/domain/withdrawal.ts): `t` is its
 * signed token. Not strict, as a mail client may add tracking parameters to a link.
 */
export const WithdrawQuery = z.object({
  t: z.string({ error: 't must be the token of the withdraw link' }).check(z.maxLength(200, { error: 't must be at most 200 characters' })),
});
const WITHDRAW_NEUTRAL = DOCS ? 'A page saying the link does not work (HTML): forged, expired, another board, or nothing to withdraw' : '';

export const careersWithdrawPage = {
  method: 'GET',
  path: '/careers/{slug}/withdraw',
  handler: 'careers-withdraw-page',
  auth: 'none',
  formToken: 'withdraw',
  access: 'read',
  html: true,
  summary: DOCS && "The applicant's withdraw link: a page asking to confirm (public; it changes nothing)",
  params: BoardParams,
  query: WithdrawQuery,
  ...(DOCS && { errors: { 404: WITHDRAW_NEUTRAL } }),
  status: 200,
  response: PAGE,
} as const satisfies Route;

export const careersWithdraw = {
  method: 'POST',
  path: '/careers/{slug}/withdraw',
  handler: 'careers-withdraw',
  auth: 'none',
  formToken: 'withdraw',
  access: 'write',
  // Erasing the person deletes their files' objects.
  files: ['delete'],
  html: true,
  summary:
    DOCS &&
    "Withdraw the application of the link's token and erase its person (public; the confirm form posts it urlencoded); a second use changes nothing",
  params: BoardParams,
  body: z.object({ t: WithdrawQuery.shape.t }),
  ...(DOCS && { errors: { 404: WITHDRAW_NEUTRAL } }),
  status: 200,
  response: PAGE,
} as const satisfies Route;
