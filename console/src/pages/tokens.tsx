/**
 * API tokens: list with who made each, their kind and expiry; create (shown once, within the
 * creator's role, personal or, for admins, workspace), rotate (the new secret shown once), revoke.
 */
import { useState } from 'preact/hooks';
import { mayRevoke, scopesOf } from '../../../lib/permissions';
import { api, errorText, unwrap } from '../api/client';
import { SCOPE_HELP } from '../labels';
import { type Session, useSession } from '../session';
import { ConfirmDialog, Empty, Loaded, Notice, PageTitle, Scroll, ShownOnce, When, useLoad } from '../ui';

const fetchTokens = async () => (await unwrap(api.GET('/api/tokens'))).data;
const fetchLifetime = async () => (await unwrap(api.GET('/api/settings/tokens'))).data;
type Token = Awaited<ReturnType<typeof fetchTokens>>[number];
type Scope = Token['scopes'][number];
/** The authorizer caches a token's result this long (the deployed API's TTL). */
const CACHE_SECONDS = 60;
/** The list warns of a token's expiry from this many days before it. */
const WARN_DAYS = 14;
const DAY_MS = 86_400_000;
/** Whole days until `iso`, rounded up (as the API documents the warning). */
const daysLeft = (iso: string, now = Date.now()) => Math.ceil((Date.parse(iso) - now) / DAY_MS);

/** The expiry cell: the date, and a warning when it is near or past. */
function Expiry({ iso }: { iso: string | null }) {
  if (!iso) return <span class="hint">never (made before tokens expired)</span>;
  const days = daysLeft(iso);
  return (
    <>
      <When iso={iso} />
      {days <= 0 ? (
        <span class="badge expiring"> expired</span>
      ) : (
        days <= WARN_DAYS && <span class="badge expiring"> expires in {days === 1 ? '1 day' : `${days} days`}</span>
      )}
    </>
  );
}

export function Tokens() {
  const { session } = useSession();
  const [load, reload] = useLoad(fetchTokens);
  const [created, setCreated] = useState<{ label: string; token: string; warning: string }>();
  const [revoking, setRevoking] = useState<Token>();
  const [rotating, setRotating] = useState<Token>();
  const [notice, setNotice] = useState<string>();

  return (
    <>
      <PageTitle title="API tokens">API tokens</PageTitle>
      <p class="lead">
        Tokens let your own systems call the <a href="/docs">API</a> with <code>Authorization: Bearer …</code>. Give each one only the
        scopes it needs. A personal token can never do more than its creator’s role allows, and stops working when its creator is removed or
        deactivated; a workspace token, made by an admin for an integration, stays. Every token expires.
      </p>
      {notice && <Notice kind="success">{notice}</Notice>}
      {created ? (
        <ShownOnce label={created.label} value={created.token} warning={created.warning} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateToken
          session={session}
          onCreated={(t) => {
            setNotice(undefined);
            setCreated({
              label: `New token “${t.name}”`,
              token: t.token,
              warning: 'This token will not be shown again. Store it in your secret manager; if it is lost, revoke it and create another.',
            });
            void reload();
          }}
        />
      )}

      <section aria-labelledby="tokens-h">
        <h2 id="tokens-h">Tokens in this workspace</h2>
        <Loaded load={load} what="the tokens" retry={reload}>
          {(tokens) =>
            tokens.length === 0 ? (
              <Empty>No tokens yet. Create one above to connect your ATS or scripts to the API.</Empty>
            ) : (
              <Scroll label="API tokens">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Scopes</th>
                      <th scope="col">Hint</th>
                      <th scope="col">Created by</th>
                      <th scope="col">Created</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Last used</th>
                      <th scope="col">
                        <span class="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {tokens.map((t) => (
                      <tr key={t.id}>
                        <td>{t.name}</td>
                        <td>{t.kind === 'workspace' ? <span class="badge">Workspace token</span> : 'Personal'}</td>
                        <td>
                          {t.scopes.map((s) => (
                            <code class="chip" key={s}>
                              {s}
                            </code>
                          ))}
                        </td>
                        <td>
                          <code>{t.hint}</code>
                        </td>
                        <td>{t.created_by ? t.created_by.email : <span class="hint">unknown (workspace token)</span>}</td>
                        <td>
                          <When iso={t.created_at} />
                        </td>
                        <td>
                          <Expiry iso={t.expires_at} />
                        </td>
                        <td>
                          <When iso={t.last_used_at} empty="never" />
                        </td>
                        <td>
                          {mayRevoke(session.user.role, session.user.id, t.created_by?.id, t.kind) && (
                            <div class="row-actions">
                              <button type="button" onClick={() => setRotating(t)} aria-label={`Rotate ${t.name}`}>
                                Rotate
                              </button>
                              <button type="button" class="danger" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                                Revoke
                              </button>
                            </div>
                          )}
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

      <RotateDialog
        token={rotating}
        onClose={() => setRotating(undefined)}
        onRotated={(name, token, endsAt) => {
          setNotice(undefined);
          setCreated({
            label: `New secret for “${name}”`,
            token,
            warning: endsAt
              ? `It will not be shown again. The old secret keeps working until ${new Date(endsAt).toLocaleString()}: replace it before then.`
              : `It will not be shown again. The old secret stops working within ${CACHE_SECONDS} seconds.`,
          });
          void reload();
        }}
      />

      <ConfirmDialog
        open={!!revoking}
        title={`Revoke the token “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke token"
        danger
        onClose={() => setRevoking(undefined)}
        onConfirm={async () => {
          const t = revoking!;
          await unwrap(api.DELETE('/api/tokens/{id}', { params: { path: { id: t.id } } }));
          setNotice(`Token “${t.name}” revoked. It stops working within ${CACHE_SECONDS} seconds.`);
          await reload();
        }}
      >
        <p>
          Anything using <strong>{revoking?.name}</strong> (<code>{revoking?.hint}</code>) will be refused. Because the API caches
          authorization for up to {CACHE_SECONDS} seconds, it stops working within {CACHE_SECONDS} seconds, not at once. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

function CreateToken({ session, onCreated }: { session: Session; onCreated: (t: { name: string; token: string }) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [kind, setKind] = useState<'personal' | 'workspace'>('personal');
  const [days, setDays] = useState<string>('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Only what the role may grant: the API refuses anything beyond it.
  const offered = scopesOf(session.user.role);
  const admin = session.user.role === 'admin';
  const [lifetime] = useLoad(fetchLifetime);
  const limits = lifetime.state === 'ok' ? lifetime.data : undefined;
  const choices = limits
    ? [...new Set([7, 30, 60, 90, 180, 366, limits.default_days])].filter((d) => d <= limits.max_days).sort((a, b) => a - b)
    : [];

  const submit = async (e: Event) => {
    e.preventDefault();
    if (scopes.length === 0) return setError('Choose at least one scope.');
    setBusy(true);
    setError(undefined);
    try {
      const expires_at = days ? new Date(Date.now() + Number(days) * DAY_MS).toISOString() : undefined;
      const { data } = await unwrap(api.POST('/api/tokens', { body: { name, scopes, kind, ...(expires_at && { expires_at }) } }));
      setName('');
      setScopes([]);
      setKind('personal');
      setDays('');
      onCreated({ name: data.name, token: data.token });
    } catch (err) {
      setError(errorText(err)); // the form keeps what was typed
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-token-h">
      <h2 id="new-token-h">Create a token</h2>
      <div class="field">
        <label for="token-name">Name</label>
        <input
          id="token-name"
          required
          maxLength={100}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          aria-describedby="token-name-hint"
        />
        <p class="hint" id="token-name-hint">
          Say what uses it, e.g. “Greenhouse sync”.
        </p>
      </div>
      <fieldset>
        <legend>Scopes</legend>
        {offered.map((s) => (
          <label class="check" key={s}>
            <input
              type="checkbox"
              checked={scopes.includes(s)}
              onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
            />
            <code>{s}</code> <span class="hint">{SCOPE_HELP[s]}</span>
          </label>
        ))}
        {!admin && (
          <p class="hint">
            Only workspace admins can create tokens that erase candidates (<code>candidates:erase</code>) or have full access (
            <code>*</code>).
          </p>
        )}
      </fieldset>
      {admin && (
        <fieldset>
          <legend>Kind</legend>
          <label class="check">
            <input type="radio" name="token-kind" checked={kind === 'personal'} onChange={() => setKind('personal')} /> Personal{' '}
            <span class="hint">acts as you, and stops working if you leave</span>
          </label>
          <label class="check">
            <input type="radio" name="token-kind" checked={kind === 'workspace'} onChange={() => setKind('workspace')} /> Workspace{' '}
            <span class="hint">for an integration: belongs to the workspace and survives staff changes</span>
          </label>
        </fieldset>
      )}
      <div class="field">
        <label for="token-expiry">Expires in</label>
        <select id="token-expiry" value={days} onChange={(e) => setDays(e.currentTarget.value)} aria-describedby="token-expiry-hint">
          <option value="">{limits ? `the workspace default (${limits.default_days} days)` : 'the workspace default'}</option>
          {choices.map((d) => (
            <option key={d} value={String(d)}>
              {d} days
            </option>
          ))}
        </select>
        <p class="hint" id="token-expiry-hint">
          {limits ? `At most ${limits.max_days} days, set by your workspace admins.` : 'Every token expires.'}
        </p>
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create token'}
      </button>
    </form>
  );
}

/** How long the old secret keeps working, as offered (the API takes 0 to 86400 seconds). */
const GRACES: Array<[number, string]> = [
  [0, 'stops at once'],
  [3600, 'keeps working for 1 hour'],
  [86_400, 'keeps working for 24 hours'],
];

function RotateDialog(props: {
  token: Token | undefined;
  onClose: () => void;
  onRotated: (name: string, token: string, endsAt: string | null) => void;
}) {
  const [grace, setGrace] = useState('3600');
  const t = props.token;
  return (
    <ConfirmDialog
      open={!!t}
      title={`Rotate the token “${t?.name ?? ''}”?`}
      confirmLabel="Rotate token"
      onClose={props.onClose}
      onConfirm={async () => {
        const { data } = await unwrap(
          api.POST('/api/tokens/{id}/rotate', { params: { path: { id: t!.id } }, body: { grace_seconds: Number(grace) } }),
        );
        props.onRotated(data.name, data.token, data.previous_secret_ends_at);
      }}
    >
      <p>
        <strong>{t?.name}</strong> gets a new secret with the same scopes, kind and expiry. The new secret is shown once.
      </p>
      <div class="field">
        <label for="rotate-grace">The old secret</label>
        <select id="rotate-grace" value={grace} onChange={(e) => setGrace(e.currentTarget.value)}>
          {GRACES.map(([seconds, text]) => (
            <option key={seconds} value={String(seconds)}>
              {text}
            </option>
          ))}
        </select>
      </div>
    </ConfirmDialog>
  );
}
