/**
 * What a delivery attempt's result means for people: a category (the same strings in the
 * delivery log's `error_category` and the test operation's `error`) and a secret-free sentence.
 */
import type { ErrorCategory } from '../schemas';
import type { SendResult } from './send';

/** The category of a failed attempt, or null when the receiver accepted it (2xx). */
export function errorCategory(r: Pick<SendResult, 'status' | 'error'>): ErrorCategory | null {
  if (r.status >= 200 && r.status < 300 && !r.error) return null;
  const e = r.error ?? '';
  if (e.startsWith('timeout')) return 'timeout';
  if (r.status >= 300 && r.status < 400) return 'redirect';
  if (r.status > 0) return 'http_status';
  if (/^(blocked target|invalid url|unsupported scheme|url must not)/.test(e)) return 'blocked';
  if (e.startsWith('dns lookup failed')) return 'dns';
  if (e.startsWith('tls error')) return 'tls';
  return 'connection';
}

/** One sentence for the test operation's `errorMessage`: no headers, no secrets. */
export function errorMessage(r: Pick<SendResult, 'status' | 'error'>): string | null {
  const category = errorCategory(r);
  if (category === null) return null;
  if (category === 'redirect') return `the receiver answered ${r.status} (a redirect); webhooks never follow redirects`;
  if (category === 'http_status') return `the receiver answered HTTP ${r.status}${r.error ? ` (${r.error})` : ''}`;
  return r.error ?? 'the request failed';
}
