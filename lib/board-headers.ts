/**
 * The public board's answer headers (lib/board-http.ts), in a module without imports so that the
 * stack's edge cache (infra/constructs/console-site.ts) and its test read the same lifetime.
 */

/** Seconds the edge may serve an answer without asking again; browsers always revalidate (ETag). */
export const BOARD_EDGE_SECONDS = 15;

/** Any site's browser code may read the board: nothing private is served, and no credentials are taken. */
export const BOARD_CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag',
} as const;

export const BOARD_CACHE_CONTROL = `public, max-age=0, s-maxage=${BOARD_EDGE_SECONDS}`;
