/**
 * A webhook delivery attempt, as the delivery log keeps it (lib/store/webhook-attempts.ts): the
 * codec, and what erasure removes. It names no candidate field, but a receiver's answer may echo
 * the payload it was sent, so the answer is personal data.
 */
import { defineEntity, field, fromItem, type RecordOf } from '../entity';
import type { Item } from '../item';

export const deliveryAttempt = defineEntity('webhook_attempt', {
  id: field.string(),
  event_id: field.string(),
  event_type: field.string(),
  attempt: field.int(),
  response_status: field.int(),
  success: field.bool(),
  duration_ms: field.int(),
  created_at: field.time(),
  error: field.string({ optional: true }),
  response_body: field.string({ optional: true, personal: true }),
  next_attempt_at: field.time({ optional: true }),
  // Attempts logged before dead-lettering was recorded were not dead-lettered.
  dead_lettered: field.bool({ ifAbsent: false }),
  // Why the attempt failed, as a category (ERROR_CATEGORIES); null on success.
  error_category: field.string({ optional: true }),
});

export type DeliveryAttempt = RecordOf<typeof deliveryAttempt.fields>;

/** The attempt item's codec. */
export const attemptFromItem = (item: Item): DeliveryAttempt => fromItem(deliveryAttempt, item);
