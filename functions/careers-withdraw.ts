import * as careersApi from '../lib/api/careers';
import { withdrawHandler } from '../lib/careers/withdraw-http';
import { alreadyWithdrawnPage, withdrawnPage } from '../lib/careers/withdraw-page';
import { withdrawApplication } from '../lib/domain/withdrawal';

/** Public: the confirm form's post; withdraws the link's application and erases its person, once. */
export const handler = withdrawHandler(careersApi.careersWithdraw, async ({ params, body }) => {
  const done = await withdrawApplication(params.slug, body.t);
  if (done === 'invalid') return undefined;
  return done === 'withdrawn' ? withdrawnPage() : alreadyWithdrawnPage();
});
