import { getPipeline } from '../lib/domain/pipeline';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('get-pipeline'), async ({ principal }) => data(await getPipeline(principal)));
