/**
 * A replay job, run by the delivery function: read the endpoint's attempts from `since` to the
 * job's start, and queue the missed events again (same id and body), 10 at a time, saving the
 * position after each batch. A retried or continued message starts from the saved position, so
 * events are queued once (at most the last batch twice, if the function stops between sending it
 * and saving).
 */
import { logger } from '../logger';
import type { Invocation } from '../records';
import { getReplayJob, updateReplayJob } from '../store/replay-jobs';
import { attemptOutcomes } from '../store/webhook-attempts';
import { getEndpoint } from '../store/webhook-endpoints';
import { getEvent } from '../store/webhook-events';
import { enqueue, type ReplayMessage } from './queue';
import { missedEvents } from './replay';

/** A replay queues at most this many events; with at most one running job per endpoint and 20 active endpoints, that bounds a workspace. */
export const MAX_REPLAY_EVENTS = 5_000;

export async function runReplay(msg: ReplayMessage, invocation: Invocation): Promise<void> {
  const job = await getReplayJob(msg.tenantId, msg.endpointId);
  if (!job || job.id !== msg.jobId || job.status !== 'running') return;
  const endpoint = await getEndpoint(msg.tenantId, msg.endpointId);
  if (!endpoint?.active) {
    await updateReplayJob(msg.tenantId, msg.endpointId, job.id, { failed: 'the endpoint is no longer active' });
    return;
  }
  const outcomes = await attemptOutcomes(msg.tenantId, msg.endpointId, Date.parse(job.since), Date.parse(job.created_at));
  const missed = missedEvents(outcomes, Date.parse(job.created_at), endpoint.events).slice(0, MAX_REPLAY_EVENTS);
  let position = job.position;
  while (position < missed.length) {
    // Leave room for one more batch; go on in a fresh invocation from the saved position.
    if (invocation.timeLeftMs() < 10_000) return enqueue([msg]);
    const chunk = missed.slice(position, position + 10);
    // Not `kept`: each replayed event's first attempt writes its body again (a fresh 32 days).
    const events = await Promise.all(chunk.map((e) => getEvent(msg.tenantId, e.id)));
    // An event whose candidate was erased is never sent again.
    const messages = events.flatMap((e) =>
      e && !e.erased_at
        ? [
            {
              v: 1 as const,
              eventId: e.event_id,
              eventType: e.event_type,
              tenantId: msg.tenantId,
              endpointId: msg.endpointId,
              body: e.body,
              series: `replay:${job.id}`,
              replayJob: job.id,
            },
          ]
        : [],
    );
    if (messages.length < chunk.length)
      logger.warn('replay: event bodies expired or erased', { jobId: job.id, missing: chunk.length - messages.length });
    await enqueue(messages);
    position += chunk.length;
    await updateReplayJob(msg.tenantId, msg.endpointId, job.id, { queued: messages.length, position });
  }
  await updateReplayJob(msg.tenantId, msg.endpointId, job.id, { scanDone: true });
  logger.info('replay queued', { jobId: job.id, endpointId: msg.endpointId, events: missed.length });
}
