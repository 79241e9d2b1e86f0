/** API tokens: list with who made each, create (shown once, within the creator's role), revoke. */
import { useState } from 'preact/hooks';
import { mayRevoke, scopesOf } from '../../../lib/permissions';
import { api, errorText, unwrap } from '../api/client';
import { SCOPE_HELP } from '../labels';
import { type Session, useSession } from '../session';
import { ConfirmDialog, Empty, Loaded, Notice, PageTitle, Scroll, ShownOnce, When, useLoad } from '../ui';

const fetchTokens = async () => (await unwrap(api.GET('/api/tokens'))).data;
type Token = Awaited<ReturnType<typeof fetchTokens>>[number];
type Scope = Token['scopes'][number];
/** The authorizer caches a token's result this long (the deployed API's TTL). */
const CACHE_SECONDS = 60;

export function Tokens() {
  const { session } = useSession();
  const [load, reload] = useLoad(fetchTokens);
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const [revoking, setRevoking] = useState<Token>();
  const [notice, setNotice] = useState<string>();

  return (
    <>
      <PageTitle title="API tokens">API tokens</PageTitle>
      <p class="lead">
        Tokens let your own systems call the <a href="/docs">API</a> with <code>Authorization: Bearer …</code>. Give each one only the
        scopes it needs. A token can never do more than its creator’s role allows, and stops working when its creator is removed.
      </p>
      {notice && <Notice kind="success">{notice}</Notice>}
      {created ? (
        <ShownOnce
          label={`New token “${created.name}”`}
          value={created.token}
          warning="This token will not be shown again. Store it in your secret manager; if it is lost, revoke it and create another."
          onDone={() => setCreated(undefined)}
        />
      ) : (
        <CreateToken
          session={session}
          onCreated={(t) => {
            setNotice(undefined);
            setCreated(t);
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
                      <th scope="col">Scopes</th>
                      <th scope="col">Hint</th>
                      <th scope="col">Created by</th>
                      <th scope="col">Created</th>
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
                          <When iso={t.last_used_at} empty="never" />
                        </td>
                        <td>
                          {mayRevoke(session.user.role, session.user.id, t.created_by?.id) && (
                            <button type="button" class="danger" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                              Revoke
                            </button>
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
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Only what the role may grant: the API refuses anything beyond it.
  const offered = scopesOf(session.user.role);
  const admin = session.user.role === 'admin';

  const submit = async (e: Event) => {
    e.preventDefault();
    if (scopes.length === 0) return setError('Choose at least one scope.');
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await unwrap(api.POST('/api/tokens', { body: { name, scopes } }));
      setName('');
      setScopes([]);
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
