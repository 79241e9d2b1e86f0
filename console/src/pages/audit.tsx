/**
 * The workspace audit log (admins): filters, newest first, "Load older", and an NDJSON export of
 * every record the filters match, page by page. Its own chunk: only admins ever open it.
 */
import { useState } from 'preact/hooks';
import { api, errorText, unwrap, type paths } from '../api/client';
import { isAdmin, useSession } from '../session';
import { Empty, Loaded, Notice, PageTitle, Scroll, useLoad, useOlderPages, When } from '../ui';

type Query = NonNullable<paths['/api/audit']['get']['parameters']['query']>;
const fetchAudit = (q: Query) => unwrap(api.GET('/api/audit', { params: { query: q } }));
type Page = Awaited<ReturnType<typeof fetchAudit>>;
type Rec = Page['data'][number];

/** The actions the service records, for the filter (docs/architecture.md, "The audit log"). */
const ACTIONS = [
  'candidate.created',
  'candidate.updated',
  'candidate.stage_changed',
  'requisition.created',
  'requisition.updated',
  'requisition.status_changed',
  'token.created',
  'token.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'webhook.tested',
  'webhook.resent',
  'webhook.replayed',
  'member.added',
  'member.add_refused',
  'member.removed',
  'member.role_changed',
  'member.password_reset',
  'member.password_changed',
  'member.password_change_failed',
  'member.lockout_cleared',
  'settings.pipeline_changed',
  'session.signed_in',
  'session.sign_in_failed',
  'session.signed_out',
];

interface Filters {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}
const NONE: Filters = { actor: '', action: '', target: '', from: '', to: '' };

/** A datetime-local value (the reader's time zone) as the API's ISO 8601 UTC; `end` takes the whole minute. */
const isoOf = (local: string, end = false) => (local ? new Date(new Date(local).getTime() + (end ? 59_999 : 0)).toISOString() : undefined);

const queryOf = (f: Filters): Query => ({
  ...(f.actor.trim() && { actor: f.actor.trim() }),
  ...(f.action && { action: f.action }),
  ...(f.target.trim() && { target: f.target.trim() }),
  ...(f.from && { from: isoOf(f.from) }),
  ...(f.to && { to: isoOf(f.to, true) }),
});

export function AuditLog() {
  const { session } = useSession();
  return (
    <>
      <PageTitle title="Audit log">Audit log</PageTitle>
      <p class="lead">
        Every change made in this workspace, through the API or this console, and every sign-in. Records cannot be changed and are kept 400
        days. Personal fields of candidates are named, never shown. A change shows here a moment after it is made.
      </p>
      {isAdmin(session) ? <AuditRecords /> : <Notice>Only workspace admins can read the audit log.</Notice>}
    </>
  );
}

function AuditRecords() {
  const [draft, setDraft] = useState<Filters>(NONE);
  const [filters, setFilters] = useState<Filters>(NONE);
  const query = queryOf(filters);
  const [load, reload, refreshing] = useLoad(() => fetchAudit({ ...query, limit: 50 }), [JSON.stringify(query)]);
  const [older, more] = useOlderPages(load, refreshing, (cursor) => fetchAudit({ ...query, limit: 50, cursor }), 'Load older');

  const field = (name: keyof Filters, label: string, props: Record<string, unknown> = {}) => (
    <div class="field">
      <label for={`audit-${name}`}>{label}</label>
      <input id={`audit-${name}`} value={draft[name]} onInput={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })} {...props} />
    </div>
  );

  return (
    <>
      <form
        class="card"
        aria-labelledby="audit-filters-h"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(draft);
        }}
      >
        <h2 id="audit-filters-h">Filters</h2>
        <div class="row">
          {field('actor', 'Actor id', { placeholder: 'user or token id', spellcheck: false })}
          <div class="field">
            <label for="audit-action">Action</label>
            <select id="audit-action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value })}>
              <option value="">All</option>
              {ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          {field('target', 'Target id', { placeholder: 'candidate, requisition, … id', spellcheck: false })}
          {field('from', 'From', { type: 'datetime-local' })}
          {field('to', 'To', { type: 'datetime-local' })}
        </div>
        <div class="row">
          <button type="submit" class="primary">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(NONE);
              setFilters(NONE);
            }}
          >
            Clear
          </button>
          <Export query={query} />
        </div>
      </form>
      <Loaded load={load} what="the audit log" retry={reload}>
        {(page) => {
          const rows = [...page.data, ...older];
          return (
            <>
              {rows.length === 0 ? (
                <Empty>No records {Object.keys(query).length ? 'match these filters' : 'yet'}.</Empty>
              ) : (
                <Scroll label="Audit log">
                  <table>
                    <caption class="sr-only">Audit records, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Time</th>
                        <th scope="col">Action</th>
                        <th scope="col">Actor</th>
                        <th scope="col">Target</th>
                        <th scope="col">Changes</th>
                        <th scope="col">Request</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((r) => (
                        <tr key={r.id}>
                          <td>
                            <When iso={r.at} />
                          </td>
                          <td>
                            <code>{r.action}</code>
                          </td>
                          <td>
                            {r.actor.type}: {r.actor.email ?? r.actor.name ?? ''} <code class="hint">{r.actor.id}</code>
                            {r.actor.created_by && <div class="hint">made by {r.actor.created_by.email}</div>}
                          </td>
                          <td>
                            {r.target.type} <code class="hint">{r.target.id}</code>
                          </td>
                          <td>
                            <Changes changes={r.changes} />
                          </td>
                          <td class="hint">
                            {r.ip ?? '—'}
                            {r.request_id && (
                              <>
                                <br />
                                <code>{r.request_id}</code>
                              </>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
              )}
              {more}
            </>
          );
        }}
      </Loaded>
    </>
  );
}

const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

function Changes({ changes }: { changes: Rec['changes'] }) {
  if (!changes.length) return <>—</>;
  return (
    <ul class="plain">
      {changes.map((c) => (
        <li key={c.field}>
          <code>{c.field}</code>
          {c.before === undefined && c.after === undefined ? (
            <span class="hint"> changed</span>
          ) : (
            <>
              {c.before !== undefined && <> {show(c.before)} →</>} {show(c.after)}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Every record the filters match, one JSON object a line, fetched 100 at a time with a progress line. */
function Export({ query }: { query: Query }) {
  const [progress, setProgress] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const lines: string[] = [];
    let pages = 0;
    try {
      let cursor: string | null | undefined;
      do {
        const page = await fetchAudit({ ...query, limit: 100, ...(cursor && { cursor }) });
        pages++;
        for (const r of page.data) lines.push(JSON.stringify(r));
        cursor = page.next_cursor;
        setProgress(`Exporting: ${lines.length} records from ${pages} page${pages === 1 ? '' : 's'}…`);
      } while (cursor);
      const url = URL.createObjectURL(new Blob([lines.length ? `${lines.join('\n')}\n` : ''], { type: 'application/x-ndjson' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `audit-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.ndjson`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setProgress(`Exported ${lines.length} records.`);
    } catch (err) {
      setProgress(`Export stopped after ${lines.length} records: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={run} disabled={busy}>
        {busy ? 'Exporting…' : 'Export (NDJSON)'}
      </button>
      {progress && (
        <p class="hint" role="status">
          {progress}
        </p>
      )}
    </>
  );
}
