/**
 * One webhook endpoint: edit, enable/disable, delete, send a test, rotate the secret, replay,
 * and the delivery log (paged, filtered, response bodies on demand, resend). Members read the
 * endpoint and its log; the actions are for admins, as the API's routes are.
 */
import { useState } from 'preact/hooks';
import { api, errorText, unwrap } from '../api/client';
import { Link, navigate } from '../router';
import { isAdmin, useSession } from '../session';
import { ConfirmDialog, ErrorBox, Loaded, Loading, Notice, PageTitle, ShownOnce, When, useLoad, useSave } from '../ui';
import { EVENT_TYPES, EventChecks, StatusBadge, statusOf, UrlField, urlProblem, type EventList } from '../webhook-common';
import { DeliveryLog, Replay } from './webhook-deliveries';

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
  const { busy, error, setError, saved, save } = useSave();
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = urlProblem(url);
    if (problem) return setError(problem);
    await save(async () => {
      // An empty selection means every event: send the full list, since the API wants at least one.
      const body = { url: url.trim(), events: (events.length ? events : EVENT_TYPES) as EventList, description: description.trim() };
      await unwrap(api.PATCH('/api/webhooks/{id}', { params: { path: { id: hook.id } }, body }));
    }, onSaved);
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
