import { getPipeline } from '../lib/domain/pipeline';
import { apiHandler, data } from '../lib/http';
import * as pipelineApi from '../lib/api/pipeline';

export const handler = apiHandler(pipelineApi.getPipeline, async ({ principal }) => data(await getPipeline(principal)));
