/**
 * The webhook routes that queue a delivery, a resend and a replay, apart from the others
 * (lib/domain/webhooks.ts), which run without the queue's configuration and client. The queue is
 * imported statically: a dynamic import makes esbuild keep the whole SQS client, every command
 * and schema of it, in the bundles of these two functions.
 */
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { newId } from '../ids';
import { MAX_REPLAY_DAYS, type ReplayBody, type ReplayJob, type ResendBody } from '../api/webhooks';
import { candidateErased, candidateOfBody, getEvent } from '../store/webhook-events';
import { getReplayJob, listReplayJobs, startReplayJob, updateReplayJob } from '../store/replay-jobs';
import { putAudit } from '../store/audit';
import { enqueue } from '../webhooks/queue';
import { notSubscribed } from '../webhooks/replay';
import type { SessionPrincipal } from './principal';
import { deliverable, jobView, MAX_RUNNING_REPLAYS, REPLAY_STALE_MS, webhookAudit } from './webhooks';

/**
 * Send one kept event to one endpoint again, whatever its past attempts did: same event id and
 * body, a fresh timestamp and signature, attempts numbered from 1 as a new series. An event of a
 * type the endpoint is no longer subscribed to goes only with `force: true`.
 */
export async function resendWebhookEvent(p: SessionPrincipal, id: string, body: ResendBody) {
  const endpoint = await deliverable(p, id);
  const event = await getEvent(p.tenantId, body.event_id);
  if (!event) throw new NotFoundError('event', { field: 'event_id' });
  // Erased: its body is gone, or (a copy the erasure's index read missed) its candidate has a marker.
  const candidateId = candidateOfBody(event.body);
  if (event.erased_at || (candidateId && (await candidateErased(p.tenantId, candidateId)))) {
    throw new ConflictError('the candidate this event names was erased; it is never sent again', { code: 'candidate_erased' });
  }
  if (!body.force && notSubscribed(endpoint.events, event.event_type)) {
    throw new ConflictError(`the endpoint is no longer subscribed to ${event.event_type}; send "force": true to resend the event anyway`, {
      code: 'event_not_subscribed',
      field: 'event_id',
    });
  }
  // Recorded before the message is queued: a resend is never sent unaudited (a failed send
  // after it leaves the record of a request that answered 500).
  await putAudit(
    p.tenantId,
    webhookAudit(p, 'webhook.resent', id, [
      { field: 'event_id', after: event.event_id },
      ...(body.force ? [{ field: 'force', after: true }] : []),
    ]),
  );
  await enqueue([
    {
      v: 1,
      eventId: event.event_id,
      eventType: event.event_type,
      tenantId: p.tenantId,
      endpointId: endpoint.id,
      body: event.body,
      series: `resend:${newId()}`,
      // Not `kept`: the resend's first attempt writes the body again, so it lives 32 days past
      // this series' attempts, as it did past the first series'.
    },
  ]);
  return { success: true, event_id: event.event_id };
}

/**
 * Queue again every event that failed to reach the endpoint since `since`. The work runs in the
 * background (a replay message on the delivery queue). While a job runs, asking again answers
 * that job (`started: false`) instead of starting another.
 */
export async function replayWebhook(p: SessionPrincipal, id: string, body: ReplayBody): Promise<{ job: ReplayJob; started: boolean }> {
  const since = Date.parse(body.since);
  const now = Date.now();
  if (since < now - MAX_REPLAY_DAYS * 86_400_000)
    throw new ValidationError(`since must be at most ${MAX_REPLAY_DAYS} days back`, { field: 'since' });
  if (since > now) throw new ValidationError('since must not be in the future', { field: 'since' });
  const endpoint = await deliverable(p, id);
  const jobs = await listReplayJobs(p.tenantId);
  const runningHere = jobs.find(
    (j) => j.webhook_id === endpoint.id && j.status === 'running' && Date.parse(j.updated_at) > now - REPLAY_STALE_MS,
  );
  if (runningHere) return { job: jobView(runningHere), started: false };
  // Checked before the conditional start: two requests racing on two endpoints can pass it
  // together, so a workspace may briefly run one job more than the cap; never one per endpoint more.
  const running = jobs.filter((j) => j.status === 'running' && Date.parse(j.updated_at) > now - REPLAY_STALE_MS).length;
  if (running >= MAX_RUNNING_REPLAYS) {
    throw new ConflictError(`the workspace already runs ${MAX_RUNNING_REPLAYS} replay jobs; try again when one is done`);
  }
  const sinceIso = new Date(since).toISOString();
  const job = await startReplayJob(
    p.tenantId,
    endpoint.id,
    sinceIso,
    REPLAY_STALE_MS,
    webhookAudit(p, 'webhook.replayed', endpoint.id, [{ field: 'since', after: sinceIso }]),
  );
  if (!job) {
    const running = await getReplayJob(p.tenantId, endpoint.id);
    // The job that won the race is answered; if it is gone already there is nothing to show.
    if (!running) throw new ConflictError('a replay for this endpoint was started at the same time; try again');
    return { job: jobView(running), started: false };
  }
  try {
    await enqueue([{ v: 1, kind: 'replay', tenantId: p.tenantId, endpointId: endpoint.id, jobId: job.id }]);
  } catch (err) {
    await updateReplayJob(p.tenantId, endpoint.id, job.id, { failed: 'could not queue the job' });
    throw err;
  }
  return { job: jobView(job), started: true };
}
