import { apiHandler, header, route } from '../lib/http';
import { openApiDocument } from '../lib/openapi';

/** Public: the OpenAPI document, with the server URL this request came through. */
export const handler = apiHandler(route('openapi'), async ({ event }) => {
  const stagePrefix = event.requestContext.path.slice(0, event.requestContext.path.length - event.path.length);
  const proto = header(event, 'x-forwarded-proto') ?? 'http';
  return openApiDocument(`${proto}://${header(event, 'host') ?? 'localhost'}${stagePrefix}`);
});
