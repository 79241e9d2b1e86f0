/**
 * A webhook endpoint's deliveries: the replay of a time window, and the delivery log (paged,
 * filtered, response bodies on demand, resend).
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, errorText, unwrap } from '../api/client';
import { Empty, ErrorBox, Loaded, Notice, Scroll, When, useLoad, useOlderPages } from '../ui';
import { EVENT_TYPES } from '../webhook-common';

const toLocalInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

export function Replay({ id, onProgress }: { id: string; onProgress: () => void }) {
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - 24 * 3_600_000)));
  const [job, setJob] = useState<Awaited<ReturnType<typeof latest>>>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const latest = async () => (await unwrap(api.GET('/api/webhooks/{id}/replay', { params: { path: { id } } }))).data;

  useEffect(() => {
    latest().then(setJob, () => undefined);
  }, [id]);
  useEffect(() => {
    if (job?.status !== 'running') return;
    const t = setTimeout(async () => {
      try {
        setJob(await latest());
        onProgress();
      } catch (err) {
        setError(errorText(err));
      }
    }, 1000);
    return () => clearTimeout(t);
  }, [job]);

  const min = toLocalInput(new Date(Date.now() - 14 * 86_400_000));
  return (
    <section class="card" aria-labelledby="replay-h">
      <h2 id="replay-h">Replay events</h2>
      <p class="hint">
        Queue again every event that failed to reach this endpoint since a time (at most 14 days back), for example after your receiver was
        down.
      </p>
      <form
        class="row"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            const started = await unwrap(
              api.POST('/api/webhooks/{id}/replay', { params: { path: { id } }, body: { since: new Date(since).toISOString() } }),
            );
            setJob(started.data);
          } catch (err) {
            setError(errorText(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="field">
          <label for="replay-since">Replay events since</label>
          <input
            id="replay-since"
            type="datetime-local"
            required
            min={min}
            value={since}
            onInput={(e) => setSince(e.currentTarget.value)}
          />
        </div>
        <button type="submit" disabled={busy || job?.status === 'running'}>
          Start replay
        </button>
      </form>
      {error && <ErrorBox message={error} />}
      {job && (
        <div aria-live="polite">
          <label for="replay-progress">
            Replay since <When iso={job.since} />: {job.status}
          </label>
          <progress id="replay-progress" class="progress" max={Math.max(job.queued, 1)} value={job.sent} />
          <p class="hint">
            {job.sent} of {job.queued} sent, {job.remaining} remaining.
          </p>
        </div>
      )}
    </section>
  );
}

const fetchDeliveries = (id: string, q: { cursor?: string; status?: 'failed' | 'succeeded'; event_type?: string }) =>
  unwrap(api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 10, ...q } } }));

export function DeliveryLog({ id, version, canResend }: { id: string; version: number; canResend: boolean }) {
  const [status, setStatus] = useState<'' | 'failed' | 'succeeded'>('');
  const [eventType, setEventType] = useState('');
  const filters = { ...(status && { status }), ...(eventType && { event_type: eventType }) };
  const [load, reload, refreshing] = useLoad(() => fetchDeliveries(id, filters), [id, status, eventType, version]);
  const [older, more] = useOlderPages(load, refreshing, (cursor) => fetchDeliveries(id, { ...filters, cursor }), 'Load older deliveries');
  // What the last resend did; `force` names an event of a type the endpoint no longer takes, offered again on purpose.
  const [resent, setResent] = useState<{ text: string; kind: 'success' | 'warning'; force?: string }>();
  const resend = async (eventId: string, type: string, force = false) => {
    try {
      await unwrap(
        api.POST('/api/webhooks/{id}/resend', { params: { path: { id } }, body: { event_id: eventId, ...(force && { force: true }) } }),
      );
      setResent({ text: `Event ${eventId} queued for delivery again.`, kind: 'success' });
    } catch (err) {
      setResent(
        err instanceof ApiError && err.detail.code === 'event_not_subscribed'
          ? { text: `Not resent: this endpoint is no longer subscribed to ${type}.`, kind: 'warning', force: eventId }
          : { text: `Could not resend ${eventId}: ${errorText(err)}`, kind: 'warning' },
      );
    }
  };

  return (
    <section aria-labelledby="log-h">
      <h2 id="log-h">Delivery log</h2>
      <div class="row">
        <div class="field">
          <label for="log-status">Result</label>
          <select id="log-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
            <option value="">All</option>
            <option value="failed">Failed</option>
            <option value="succeeded">Succeeded</option>
          </select>
        </div>
        <div class="field">
          <label for="log-event">Event type</label>
          <select id="log-event" value={eventType} onChange={(e) => setEventType(e.currentTarget.value)}>
            <option value="">All</option>
            {['webhook.test', ...EVENT_TYPES].map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => void reload()}>
          Refresh
        </button>
      </div>
      {resent && (
        <Notice kind={resent.kind}>
          {resent.text}
          {resent.force && (
            <>
              {' '}
              <button type="button" class="link" onClick={() => void resend(resent.force!, '', true)}>
                Resend anyway<span class="sr-only"> event {resent.force}</span>
              </button>
            </>
          )}
        </Notice>
      )}
      <Loaded load={load} what="the delivery log" retry={reload}>
        {(page) => {
          const rows = [...page.data, ...older];
          return rows.length === 0 ? (
            <Empty>No deliveries {status || eventType ? 'match these filters' : 'yet'}. Use “Send test” above to try the endpoint.</Empty>
          ) : (
            <>
              <Scroll label="Delivery log">
                <table>
                  <caption class="sr-only">Delivery attempts, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Event</th>
                      <th scope="col">Result</th>
                      <th scope="col" class="num">
                        Status
                      </th>
                      <th scope="col" class="num">
                        Duration
                      </th>
                      <th scope="col" class="num">
                        Attempt
                      </th>
                      <th scope="col">Next attempt</th>
                      <th scope="col">Error</th>
                      <th scope="col">
                        <span class="sr-only">Details and actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((d) => (
                      <tr key={d.id}>
                        <td>
                          <When iso={d.created_at} />
                        </td>
                        <td>
                          <code>{d.event_type}</code>
                        </td>
                        <td>
                          {d.success ? (
                            <span class="ok">Succeeded</span>
                          ) : (
                            <span class="bad">Failed{d.dead_lettered ? ' (gave up)' : ''}</span>
                          )}
                        </td>
                        <td class="num">{d.response_status || '—'}</td>
                        <td class="num">{d.duration_ms} ms</td>
                        <td class="num">{d.attempt}</td>
                        <td>
                          <When iso={d.next_attempt_at} />
                        </td>
                        <td>
                          {d.error ?? '—'}
                          {d.error_category && <span class="hint"> ({d.error_category})</span>}
                        </td>
                        <td>
                          {d.response_body !== null && d.response_body !== '' && (
                            <details>
                              <summary>Response body</summary>
                              <pre>{d.response_body}</pre>
                            </details>
                          )}
                          {canResend && d.event_type !== 'webhook.test' && (
                            <button type="button" class="link" onClick={() => void resend(d.event_id, d.event_type)}>
                              Resend<span class="sr-only"> event {d.event_id}</span>
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
              {more}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
