/**
 * Header names shared by lib/edge.ts (which believes them) and infra/ (the CloudFront function
 * that sets them and the origin that adds the secret). A module without imports, so the stack can
 * use them at synth time without loading lib/config.ts and its required TABLE_NAME.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';
export const FORWARDED_HOST_HEADER = 'x-forwarded-host';
