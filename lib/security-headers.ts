/**
 * Security headers, one definition for every place that answers: the API handlers (lib/http.ts),
 * the local gateway (its own errors and the console's files) and CloudFront's response-headers
 * policies in the stack. The console needs no inline script or style attribute, so its policy
 * allows only its own origin; JSON answers need nothing at all.
 */

/**
 * The console page: scripts, styles, images and API calls from its own origin only, plus the files
 * bucket's origin for the two things the browser does there itself: the upload's POST
 * (connect-src) and an uploaded image shown in the reader (img-src, reached through the API's
 * redirect to a short-lived link). Nothing else of the bucket's origin may load: no script,
 * style, frame or form target.
 */
export function consoleCsp(filesOrigin?: string): string {
  const files = filesOrigin ? ` ${filesOrigin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${files}`,
    `connect-src 'self'${files}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The console's policy without a files bucket (a stack started without one). */
export const CONSOLE_CSP = consoleCsp();

/** API answers are data, never documents: nothing may load, nothing may frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Two years, as the HSTS preload list asks. Browsers ignore it over plain http (local runs). */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;

const common = {
  'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
} as const;

export const CONSOLE_SECURITY_HEADERS = { ...common, 'Content-Security-Policy': CONSOLE_CSP } as const;
/** The console's headers when its uploads go to the files bucket at `filesOrigin`. */
export const consoleSecurityHeaders = (filesOrigin?: string) =>
  ({ ...common, 'Content-Security-Policy': consoleCsp(filesOrigin) }) as const;
export const API_SECURITY_HEADERS = { ...common, 'Content-Security-Policy': API_CSP } as const;
