/**
 * What one delivery invocation shares between its records (profiled with `npm run bench`: four
 * table calls per delivery were most of its time): each endpoint is read once; the successes'
 * attempt records and kept bodies are written together at the end (writeLogItems: transactions
 * of up to 100 actions when they copy a candidate's data, under its erasure marker's check, or
 * BatchWriteItem, 25 per call);
 * and the `last_triggered_at` of a healthy endpoint is written once, after them. Failures keep
 * their per-attempt writes in order (attempt, then counters), so failure counts stay exact.
 */
import { logger } from '../logger';
import { invocationMetrics } from '../metrics';
import { erasedAmong } from '../store/erasure';
import { updateReplayJob } from '../store/replay-jobs';
import { getEndpoint, touchLastTriggered, type Endpoint } from '../store/webhook-endpoints';
import { writeLogItems } from '../store/webhook-events';
import type { DeliveryMessage } from './queue';

/**
 * A replay delivery finished (accepted or given up): move its job's progress. A failure here is
 * logged, not retried: retrying would send the event again for the sake of a counter.
 */
export async function replayFinished(msg: DeliveryMessage, sent: boolean): Promise<void> {
  if (!msg.replayJob) return;
  try {
    await updateReplayJob(msg.tenantId, msg.endpointId, msg.replayJob, { finished: 1, ...(sent && { sent: 1 }) });
  } catch (err) {
    logger.error('replay progress not recorded', {
      jobId: msg.replayJob,
      error: { name: (err as Error).name, message: (err as Error).message },
    });
  }
}

export class DeliveryBatch {
  private endpoints = new Map<string, Promise<Endpoint | undefined>>();
  /** The batch's per-delivery metrics, written as one EMF line at the end of the invocation. */
  readonly metrics = invocationMetrics();
  /** Log items of successful deliveries, by the message they record. */
  readonly logs = new Map<
    string,
    { items: Record<string, unknown>[]; tenantId: string; endpointId: string; at: string; replay?: DeliveryMessage }
  >();

  private erasedSet?: Promise<Set<string>>;
  private readonly prefetched = new Set<string>();

  /** Read the erasure markers of these candidates at once (lib/store/erasure.ts). */
  prefetchErased(pairs: { tenantId: string; candidateId: string }[]) {
    if (!pairs.length) return;
    for (const p of pairs) this.prefetched.add(`${p.tenantId}/${p.candidateId}`);
    this.erasedSet = erasedAmong(pairs);
    // Awaited by each delivery that needs it; a failed read fails those deliveries (SQS retries them).
    this.erasedSet.catch(() => {});
  }

  /** Whether the candidate was erased: from the batch's read, or a read of its own. */
  async erased(tenantId: string, candidateId: string): Promise<boolean> {
    const key = `${tenantId}/${candidateId}`;
    if (this.erasedSet && this.prefetched.has(key)) return (await this.erasedSet).has(key);
    return (await erasedAmong([{ tenantId, candidateId }])).has(key);
  }

  endpoint(tenantId: string, endpointId: string) {
    const key = `${tenantId}/${endpointId}`;
    if (!this.endpoints.has(key)) this.endpoints.set(key, getEndpoint(tenantId, endpointId));
    return this.endpoints.get(key)!;
  }

  /**
   * Write the successes' logs; the records whose logs could not be written are returned, to be
   * reported as failed (SQS hands them out again: at least once, with the same webhook-id). Then
   * move each healthy endpoint's last_triggered_at once, to its latest success.
   */
  async flush(): Promise<string[]> {
    const entries = [...this.logs];
    if (!entries.length) return [];
    const unwritten = new Set(await writeLogItems(entries.flatMap(([, l]) => l.items)));
    const lost = entries.filter(([, l]) => l.items.some((i) => unwritten.has(i))).map(([id]) => id);
    const latest = new Map<string, { tenantId: string; endpointId: string; at: string }>();
    for (const [id, l] of entries) {
      if (lost.includes(id)) continue;
      const key = `${l.tenantId}/${l.endpointId}`;
      if ((latest.get(key)?.at ?? '') < l.at) latest.set(key, l);
    }
    // A lost timestamp costs a stale last_triggered_at, never an attempt or a count: logged only.
    await Promise.all(
      [...latest.values()].map((l) =>
        touchLastTriggered(l.tenantId, l.endpointId, l.at).catch((err: Error) =>
          logger.error('last_triggered_at not recorded', { endpointId: l.endpointId, error: { name: err.name, message: err.message } }),
        ),
      ),
    );
    await Promise.all(entries.filter(([id, l]) => l.replay && !lost.includes(id)).map(([, l]) => replayFinished(l.replay!, true)));
    if (lost.length) logger.error('delivery log not written; deliveries will be retried', { count: lost.length });
    return lost;
  }
}
