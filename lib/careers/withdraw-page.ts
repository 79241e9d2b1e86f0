/**
 * The pages of the applicant's withdraw link (lib/domain/withdrawal.ts): the confirm form, the
 * page after it, the page of a link already used, and the one page of a link that does not work
 * (forged, expired, another board, nothing there), which says nothing about why. No script; the
 * form posts urlencoded to the same path. The token is in the page, so it is never cached and
 * sends no referrer. Only the withdraw functions import it.
 */
import { escapeHtml as e } from './markdown';
import { careersPath, messagePage } from './page';

export const withdrawPath = (slug: string) => `${careersPath(slug)}/withdraw`;

export function confirmWithdrawPage(slug: string, token: string, jobTitle: string, workspace: string): string {
  const job = jobTitle ? `<strong>${e(jobTitle)}</strong>` : 'a position';
  const org = workspace ? ` at ${e(workspace)}` : '';
  return messagePage(
    'Withdraw your application',
    `<p>This withdraws your application for ${job}${org}, and erases the personal data${org} holds about you in its hiring ` +
      'system: every application of yours, your answers, your files and the notes about you. It cannot be undone.</p>' +
      `<form method="post" action="${e(withdrawPath(slug))}"><input type="hidden" name="t" value="${e(token)}">` +
      '<button type="submit">Withdraw and erase my data</button></form>' +
      '<p>If you want to keep your application, close this page: nothing has changed.</p>',
  );
}

export const withdrawnPage = (): string =>
  messagePage(
    'Application withdrawn',
    '<p role="status">Your application is withdrawn and your personal data erased. You will not hear from us about it again.</p>',
  );

export const alreadyWithdrawnPage = (): string =>
  messagePage(
    'Already done',
    '<p role="status">This application was already withdrawn and its personal data erased. Nothing more to do.</p>',
  );

export const linkNotWorkingPage = (): string =>
  messagePage(
    'This link does not work',
    '<p>The link may have expired or been copied incompletely. To withdraw an application, write to the employer you applied to.</p>',
  );

export const tryLaterPage = (): string =>
  messagePage(
    'Please try again later',
    '<p>Your request could not be completed just now. Nothing was changed; please try again in a few minutes.</p>',
  );
