import { config } from '../lib/config';
import { contentEtag, getBoardJob } from '../lib/domain/boards';
import { formTokenWindow, issueFormToken } from '../lib/domain/form-token';
import { boardReply, jobNotFound } from '../lib/board-http';
import { apiHandler, data } from '../lib/http';
import * as boardsApi from '../lib/api/boards';

/** Public: one published job with its application questions and a form token. */
export const handler = apiHandler(boardsApi.getBoardJob, async ({ params, event }) => {
  const job = await getBoardJob(params.slug, params.id);
  if (!job) throw jobNotFound();
  const now = Date.now();
  const body = data({ ...job, form_token: issueFormToken(config.formTokenSecret, params.slug, params.id, now) });
  // Not over the token, which differs on every read: a client revalidating keeps its copy, and
  // with it a token from the same window, well inside the token's lifetime.
  return boardReply(event, body, contentEtag({ job, window: formTokenWindow(now) }));
});
