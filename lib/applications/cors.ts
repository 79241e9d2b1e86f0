/**
 * CORS for the public application route: any site's browser code may post and read the answer,
 * errors included (a form shows the `field` at fault). No credentials: the route reads no cookie.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
} as const;

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Every answer of `handler`, success or error, with the CORS headers. */
export const withCors =
  (handler: Handler): Handler =>
  async (event, context) => {
    const result = await handler(event, context);
    return { ...result, headers: { ...result.headers, ...CORS_HEADERS } };
  };
