import * as careersApi from '../lib/api/careers';
import { withdrawHandler } from '../lib/careers/withdraw-http';
import { alreadyWithdrawnPage, confirmWithdrawPage } from '../lib/careers/withdraw-page';
import { withdrawView } from '../lib/domain/withdrawal';

/** Public: the withdraw link's page, a form to confirm; reading it changes nothing (mail scanners follow links). */
export const handler = withdrawHandler(careersApi.careersWithdrawPage, async ({ params, query }) => {
  const view = await withdrawView(params.slug, query.t);
  if (view.kind === 'invalid') return undefined;
  if (view.kind === 'done') return alreadyWithdrawnPage();
  return confirmWithdrawPage(params.slug, query.t, view.jobTitle, view.workspace);
});
