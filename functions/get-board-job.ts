import { contentEtag, getBoardJob } from '../lib/domain/boards';
import { boardReply, jobNotFound } from '../lib/board-http';
import { apiHandler, data } from '../lib/http';
import * as boardsApi from '../lib/api/boards';

/** Public: one published job with its application questions. */
export const handler = apiHandler(boardsApi.getBoardJob, async ({ params, event }) => {
  const job = await getBoardJob(params.slug, params.id);
  if (!job) throw jobNotFound();
  const body = data(job);
  return boardReply(event, body, contentEtag(body));
});
