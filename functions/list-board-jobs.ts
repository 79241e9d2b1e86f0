import { contentEtag, listBoardJobs } from '../lib/domain/boards';
import { boardReply } from '../lib/board-http';
import { apiHandler } from '../lib/http';
import * as boardsApi from '../lib/api/boards';

/** Public: a workspace's published jobs, by careers slug. */
export const handler = apiHandler(boardsApi.listBoardJobs, async ({ params, query, event }) => {
  const page = await listBoardJobs(params.slug, query);
  return boardReply(event, page, contentEtag(page));
});
