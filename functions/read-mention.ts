import { readMention } from '../lib/domain/mentions';
import { apiHandler, data } from '../lib/http';
import * as mentionsApi from '../lib/api/mentions';

export const handler = apiHandler(mentionsApi.readMention, async ({ principal, params }) => data(await readMention(principal, params.id)));
