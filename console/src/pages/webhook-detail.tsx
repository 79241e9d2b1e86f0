/**
 * One webhook endpoint: edit, enable/disable, delete, send a test, rotate the secret, replay,
 * and the delivery log (paged, filtered, response bodies on demand, resend). Members read the
 * endpoint and its log; the actions are for admins, as the API's routes are.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, errorText, unwrap } from '../api/client';
import { Link, navigate } from '../router';
import { isAdmin, useSession } from '../session';
import { ConfirmDialog, Empty, ErrorBox, Loaded, Loading, Notice, PageTitle, Scroll, ShownOnce, When, useLoad, useOlderPages } from '../ui';
import { EVENT_TYPES, EventChecks, StatusBadge, statusOf, UrlField, urlProblem, type EventList } from '../webhook-common';

const fetchWebhook = async (id: string) => unwrap(api.GET('/api/webhooks/{id}', { params: { path: { id } } }));
type Detail = Awaited<ReturnType<typeof fetchWebhook>>;
type Hook = Detail['webhook'];

export function WebhookDetail({ id }: { id: string }) {
  const [load, reload] = useLoad(() => fetchWebhook(id), [id]);
  return (
    <>
      <p>
        <Link href="/settings/webhooks">← All webhooks</Link>
      </p>
      <PageTitle title="Webhook endpoint">Webhook endpoint</PageTitle>
      <Loaded load={load} what="the endpoint" retry={reload}>
        {(d) => <Endpoint hook={d.webhook} reload={reload} />}
      </Loaded>
    </>
  );
}

function Endpoint({ hook, reload }: { hook: Hook; reload: () => Promise<void> }) {
  const admin = isAdmin(useSession().session);
  const status = statusOf(hook);
  const changeable = admin && status !== 'deleted';
  const [notice, setNotice] = useState<string>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [logVersion, setLogVersion] = useState(0);

  const setActive = async (active: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(api.PATCH('/api/webhooks/{id}', { params: { path: { id: hook.id } }, body: { active } }));
      setNotice(active ? 'Endpoint enabled: new events will be delivered.' : 'Endpoint disabled: no events are sent until you enable it.');
      await reload();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <section class="card" aria-labelledby="hook-h">
        <h2 id="hook-h" class="mono">
          {hook.url}
        </h2>
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <StatusBadge w={hook} />
          </dd>
          <dt>Events</dt>
          <dd>{hook.events.length ? hook.events.join(', ') : 'all events'}</dd>
          <dt>Description</dt>
          <dd>{hook.description || '—'}</dd>
          <dt>Consecutive failures</dt>
          <dd>{hook.failure_count}</dd>
          <dt>Last triggered</dt>
          <dd>
            <When iso={hook.last_triggered_at} empty="never" />
          </dd>
        </dl>
        {notice && <Notice kind="success">{notice}</Notice>}
        {error && <ErrorBox message={error} />}
        {changeable && (
          <div class="actions">
            {status === 'active' ? (
              <button type="button" onClick={() => setActive(false)} disabled={busy}>
                Disable
              </button>
            ) : (
              <button type="button" onClick={() => setActive(true)} disabled={busy}>
                Enable
              </button>
            )}
            <button type="button" class="danger" onClick={() => setConfirmDelete(true)}>
              Delete endpoint
            </button>
          </div>
        )}
        {status === 'deleted' && <p class="hint">This endpoint was deleted. Its delivery log stays readable below.</p>}
        {!admin && status !== 'deleted' && (
          <p class="hint">Only workspace admins can change, test, replay or delete this endpoint, or rotate its secret.</p>
        )}
      </section>

      {changeable && (
        <>
          <SendTest id={hook.id} onSent={() => setLogVersion((v) => v + 1)} />
          <EditEndpoint hook={hook} onSaved={reload} />
          <RotateSecret id={hook.id} />
          <Replay id={hook.id} onProgress={() => setLogVersion((v) => v + 1)} />
        </>
      )}
      <DeliveryLog id={hook.id} version={logVersion} canResend={changeable} />

      <ConfirmDialog
        open={confirmDelete}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        danger
        onClose={() => setConfirmDelete(false)}
        onConfirm={async () => {
          await unwrap(api.DELETE('/api/webhooks/{id}', { params: { path: { id: hook.id } } }));
          navigate('/settings/webhooks');
        }}
      >
        <p>
          No more events will be sent to <code>{hook.url}</code>. Its delivery log stays readable. To pause deliveries instead, disable it.
        </p>
      </ConfirmDialog>
    </>
  );
}

function SendTest({ id, onSent }: { id: string; onSent: () => void }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Awaited<ReturnType<typeof send>>>();
  const [error, setError] = useState<string>();
  const send = () => unwrap(api.POST('/api/webhooks/{id}/test', { params: { path: { id } } }));
  return (
    <section class="card" aria-labelledby="test-h">
      <h2 id="test-h">Send a test event</h2>
      <p class="hint">Sends a signed webhook.test event now and records it in the delivery log.</p>
      <button
        type="button"
        class="primary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          setResult(undefined);
          try {
            setResult(await send());
            onSent();
          } catch (err) {
            setError(errorText(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? 'Sending…' : 'Send test'}
      </button>
      <div aria-live="polite">
        {busy && <Loading what="the test result (up to 15 seconds)" />}
        {error && <ErrorBox message={error} />}
        {result && (
          <div class={`alert ${result.success ? 'success' : 'error'}`} data-testid="test-result">
            <p>
              <strong>{result.success ? 'Delivered.' : 'Failed.'}</strong> Status {result.status || 'none'}, {result.duration_ms} ms.
            </p>
            {!result.success && (result.error_message || result.error) && (
              <p>
                Reason: {result.error_message ?? result.error}
                {result.error && result.error_message ? ` (${result.error})` : ''}
              </p>
            )}
            {result.response_body && (
              <details>
                <summary>Response body</summary>
                <pre>{result.response_body}</pre>
              </details>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

function EditEndpoint({ hook, onSaved }: { hook: Hook; onSaved: () => Promise<void> }) {
  const [url, setUrl] = useState(hook.url);
  const [events, setEvents] = useState<string[]>(hook.events);
  const [description, setDescription] = useState(hook.description ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = urlProblem(url);
    if (problem) return setError(problem);
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      // An empty selection means every event: send the full list, since the API wants at least one.
      const body = { url: url.trim(), events: (events.length ? events : EVENT_TYPES) as EventList, description: description.trim() };
      await unwrap(api.PATCH('/api/webhooks/{id}', { params: { path: { id: hook.id } }, body }));
      setSaved(true);
      await onSaved();
    } catch (err) {
      setError(errorText(err)); // what was typed stays in the form
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="edit-h" noValidate>
      <h2 id="edit-h">Edit</h2>
      <UrlField id="edit-url" value={url} onInput={setUrl} />
      <EventChecks value={events} onChange={setEvents} />
      <div class="field">
        <label for="edit-desc">Description</label>
        <input id="edit-desc" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      {saved && <Notice kind="success">Changes saved.</Notice>}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}

const GRACE: [number, string][] = [
  [0, 'End the old secret now'],
  [3600, 'Keep the old secret for 1 hour'],
  [86_400, 'Keep the old secret for 24 hours'],
  [604_800, 'Keep the old secret for 7 days'],
];

function RotateSecret({ id }: { id: string }) {
  const [grace, setGrace] = useState(86_400);
  const [open, setOpen] = useState(false);
  const [rotated, setRotated] = useState<{ secret: string; previous_secret_expires_at: string | null }>();
  return (
    <section class="card" aria-labelledby="rotate-h">
      <h2 id="rotate-h">Signing secret</h2>
      {rotated ? (
        <>
          <ShownOnce
            label="New signing secret"
            value={rotated.secret}
            warning="It will not be shown again. Deploy it to your receiver; until then deliveries are signed with both secrets."
            onDone={() => setRotated(undefined)}
          />
          <p>
            The old secret{' '}
            {rotated.previous_secret_expires_at ? (
              <>
                stops signing at <When iso={rotated.previous_secret_expires_at} />
              </>
            ) : (
              'no longer signs'
            )}
            .
          </p>
        </>
      ) : (
        <>
          <p class="hint">
            Rotate when the secret may have leaked. During the grace period each delivery carries a signature from both secrets.
          </p>
          <div class="field">
            <label for="grace">Grace period</label>
            <select id="grace" value={grace} onChange={(e) => setGrace(Number(e.currentTarget.value))}>
              {GRACE.map(([s, label]) => (
                <option key={s} value={s}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <button type="button" onClick={() => setOpen(true)}>
            Rotate secret
          </button>
        </>
      )}
      <ConfirmDialog
        open={open}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          const r = await unwrap(
            api.POST('/api/webhooks/{id}/rotate-secret', { params: { path: { id } }, body: { grace_seconds: grace } }),
          );
          setRotated(r.webhook);
        }}
      >
        <p>A new secret is made now and shown once. {GRACE.find(([s]) => s === grace)?.[1]}.</p>
      </ConfirmDialog>
    </section>
  );
}

const toLocalInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

function Replay({ id, onProgress }: { id: string; onProgress: () => void }) {
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

function DeliveryLog({ id, version, canResend }: { id: string; version: number; canResend: boolean }) {
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
