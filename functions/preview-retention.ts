import { previewRetention } from '../lib/domain/retention';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('preview-retention'), async ({ principal, query }) =>
  data(await previewRetention(principal, query)),
);
