/** Webhook endpoints: list with status for every member; admins create them (secret shown once). */
import { useState } from 'preact/hooks';
import { api, errorText, unwrap } from '../api/client';
import { Link } from '../router';
import { isAdmin, useSession } from '../session';
import { Empty, Loaded, Notice, PageTitle, Scroll, ShownOnce, When, useLoad } from '../ui';
import { EventChecks, StatusBadge, UrlField, urlProblem, type EventList } from '../webhook-common';

type Filter = '' | 'active' | 'disabled' | 'deleted';
const fetchWebhooks = async (status: Filter) =>
  (await unwrap(api.GET('/api/webhooks', { params: { query: status ? { status } : {} } }))).data;

export function Webhooks() {
  const admin = isAdmin(useSession().session);
  const [filter, setFilter] = useState<Filter>('');
  const [load, reload] = useLoad(() => fetchWebhooks(filter), [filter]);
  const [created, setCreated] = useState<{ url: string; secret: string; id: string }>();

  return (
    <>
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      <p class="lead">
        Webhooks send signed events (Standard Webhooks) to your HTTPS endpoint when candidates are created, move stages, get offers or are
        placed.
      </p>
      {created ? (
        <>
          <ShownOnce
            label="Signing secret of the new endpoint"
            value={created.secret}
            warning="The secret will not be shown again. Your receiver needs it to verify the webhook-signature header; you can rotate it later."
            onDone={() => setCreated(undefined)}
          />
          <p>
            <Link href={`/settings/webhooks/${created.id}`}>Open the new endpoint</Link> to send a test event.
          </p>
        </>
      ) : admin ? (
        <CreateWebhook
          onCreated={(c) => {
            setCreated(c);
            void reload();
          }}
        />
      ) : (
        <Notice>Only workspace admins can add, change, test or delete endpoints: an endpoint receives every candidate’s data.</Notice>
      )}
      <section aria-labelledby="hooks-h">
        <h2 id="hooks-h">Endpoints</h2>
        <div class="field">
          <label for="hook-filter">Show</label>
          <select id="hook-filter" value={filter} onChange={(e) => setFilter(e.currentTarget.value as Filter)}>
            <option value="">All endpoints</option>
            <option value="active">Active</option>
            <option value="disabled">Disabled</option>
            <option value="deleted">Deleted</option>
          </select>
        </div>
        <Loaded load={load} what="the webhook endpoints" retry={reload}>
          {(hooks) =>
            hooks.length === 0 ? (
              <Empty>
                {filter
                  ? `No ${filter} endpoints. Choose “All endpoints” to see the others.`
                  : admin
                    ? "No endpoints yet. Add your receiver's https:// URL above, then send it a test event from its page."
                    : 'No endpoints yet.'}
              </Empty>
            ) : (
              <Scroll label="Webhook endpoints">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Endpoint</th>
                      <th scope="col">Status</th>
                      <th scope="col">Events</th>
                      <th scope="col" class="num">
                        Failures
                      </th>
                      <th scope="col">Last triggered</th>
                    </tr>
                  </thead>
                  <tbody>
                    {hooks.map((w) => (
                      <tr key={w.id}>
                        <td>
                          <Link href={`/settings/webhooks/${w.id}`}>{w.url}</Link>
                          {w.description && <div class="hint">{w.description}</div>}
                        </td>
                        <td>
                          <StatusBadge w={w} />
                        </td>
                        <td>
                          {w.events.length
                            ? w.events.map((e) => (
                                <code class="chip" key={e}>
                                  {e}
                                </code>
                              ))
                            : 'all events'}
                        </td>
                        <td class="num">{w.failure_count}</td>
                        <td>
                          <When iso={w.last_triggered_at} empty="never" />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
            )
          }
        </Loaded>
      </section>
    </>
  );
}

function CreateWebhook({ onCreated }: { onCreated: (c: { url: string; secret: string; id: string }) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = urlProblem(url);
    if (problem) return setError(problem);
    setBusy(true);
    setError(undefined);
    try {
      const body = {
        url: url.trim(),
        ...(events.length && { events: events as EventList }),
        ...(description.trim() && { description: description.trim() }),
      };
      const { webhook } = await unwrap(api.POST('/api/webhooks', { body }));
      setUrl('');
      setEvents([]);
      setDescription('');
      onCreated({ url: webhook.url, secret: webhook.secret, id: webhook.id });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-hook-h" noValidate>
      <h2 id="new-hook-h">Add an endpoint</h2>
      <UrlField id="hook-url" value={url} onInput={setUrl} />
      <EventChecks value={events} onChange={setEvents} />
      <div class="field">
        <label for="hook-desc">Description (optional)</label>
        <input id="hook-desc" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}
