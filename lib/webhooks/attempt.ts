/**
 * One attempt to one endpoint, as the delivery and the test operation both make it: sign with the
 * endpoint's secret (and the previous one during a rotation's grace window), POST once, and
 * describe the attempt for the delivery log. One path, so a test send proves what a delivery does.
 */
import type { ErrorCategory } from '../schemas';
import type { Attempt } from '../store/webhook-attempts';
import { previousSecret, type Endpoint } from '../store/webhook-endpoints';
import { webhookConfig } from './config';
import { errorCategory } from './outcome';
import { sendWebhook, type SendResult } from './send';
import { deliveryHeaders } from './sign';

export interface SentAttempt {
  result: SendResult;
  /** When the attempt started: the signature's timestamp and the log's created_at. */
  at: string;
  /** null when the receiver accepted it (2xx). */
  category: ErrorCategory | null;
}

/** Sign `event.body` for the endpoint and POST it once. Never throws for the receiver's sake. */
export async function signAndSend(endpoint: Endpoint, event: { id: string; type: string; body: string }): Promise<SentAttempt> {
  const started = new Date();
  const result = await sendWebhook(
    endpoint.url,
    event.body,
    deliveryHeaders(endpoint.secret, event, started.getTime(), previousSecret(endpoint, started.getTime())),
    { timeoutMs: webhookConfig.timeoutMs, allowLoopback: webhookConfig.allowLoopback },
  );
  return { result, at: started.toISOString(), category: errorCategory(result) };
}

/** The delivery log's record of an attempt; what happens next (retry, dead letter) is the caller's. */
export function attemptRecord(
  event: { id: string; type: string },
  attempt: number,
  sent: SentAttempt,
  next: { next_attempt_at: string | null; dead_lettered: boolean } = { next_attempt_at: null, dead_lettered: false },
): Omit<Attempt, 'id'> {
  return {
    event_id: event.id,
    event_type: event.type,
    attempt,
    response_status: sent.result.status,
    success: sent.category === null,
    duration_ms: Math.round(sent.result.durationMs),
    created_at: sent.at,
    error: sent.result.error ?? null,
    response_body: sent.result.body || null,
    next_attempt_at: next.next_attempt_at,
    dead_lettered: next.dead_lettered,
    error_category: sent.category,
  };
}
