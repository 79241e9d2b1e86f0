import { listMentions } from '../lib/domain/mentions';
import { apiHandler, page } from '../lib/http';
import * as mentionsApi from '../lib/api/mentions';

export const handler = apiHandler(mentionsApi.listMentions, async ({ principal, query }) => page(await listMentions(principal, query)));
