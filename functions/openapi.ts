import { apiHandler, header, route } from '../lib/http';
import { openApiDocument } from '../lib/openapi';

/** Public: the OpenAPI document, with the server URL this request came through. */
const documents = new Map<string, ReturnType<typeof openApiDocument>>();

export const handler = apiHandler(route('openapi'), async ({ event }) => {
  const stagePrefix = event.requestContext.path.slice(0, event.requestContext.path.length - event.path.length);
  const proto = header(event, 'x-forwarded-proto') ?? 'http';
  const server = `${proto}://${header(event, 'host') ?? 'localhost'}${stagePrefix}`;
  // Converting every schema is the expensive part; a container serves few host names.
  if (!documents.has(server) && documents.size < 16) documents.set(server, openApiDocument(server));
  return documents.get(server) ?? openApiDocument(server);
});
