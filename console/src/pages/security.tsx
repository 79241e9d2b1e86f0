/**
 * Security settings: API token lifetimes (the default and the maximum, in days) and the
 * two-factor policy. Every member reads them; admins change them, and each change is audited.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { isAdmin, useSession } from '../session';
import { Loaded, Notice, PageTitle, useLoad, useSave } from '../ui';

export function SecuritySettings() {
  return (
    <>
      <PageTitle title="Security settings">Security settings</PageTitle>
      <TokenLifetimes />
      <TwoFactorPolicy />
    </>
  );
}

const fetchLifetimes = async () => (await unwrap(api.GET('/api/settings/tokens'))).data;

export function TokenLifetimes() {
  const { session } = useSession();
  const admin = isAdmin(session);
  const [load, reload] = useLoad(fetchLifetimes);
  const [def, setDef] = useState('');
  const [max, setMax] = useState('');
  const { busy, error, setError, saved, save } = useSave();
  useEffect(() => {
    if (load.state === 'ok') {
      setDef(String(load.data.default_days));
      setMax(String(load.data.max_days));
    }
  }, [load]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const d = Number(def);
    const m = Number(max);
    if (![d, m].every((n) => Number.isInteger(n) && n >= 1 && n <= 366)) return setError('Enter whole numbers of days from 1 to 366.');
    if (d > m) return setError('The default lifetime cannot be longer than the maximum.');
    await save(async () => {
      await unwrap(api.PUT('/api/settings/tokens', { body: { default_days: d, max_days: m } }));
    }, reload);
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="lifetimes-h" noValidate>
      <h2 id="lifetimes-h">API token lifetimes</h2>
      <p>
        Every API token expires. A token made without an expiry gets the default lifetime; none may live longer than the maximum. Tokens
        made before a change keep their expiry.
      </p>
      <Loaded load={load} what="the token lifetimes" retry={reload}>
        {() => (
          <>
            <div class="field">
              <label for="lifetime-default">Default lifetime (days)</label>
              <input
                id="lifetime-default"
                type="number"
                min={1}
                max={366}
                required
                disabled={!admin}
                value={def}
                onInput={(e) => setDef(e.currentTarget.value)}
              />
            </div>
            <div class="field">
              <label for="lifetime-max">Maximum lifetime (days)</label>
              <input
                id="lifetime-max"
                type="number"
                min={1}
                max={366}
                required
                disabled={!admin}
                value={max}
                onInput={(e) => setMax(e.currentTarget.value)}
              />
            </div>
            {admin ? (
              <button type="submit" class="primary" disabled={busy}>
                {busy ? 'Saving…' : 'Save lifetimes'}
              </button>
            ) : (
              <p class="hint">Only workspace admins can change the lifetimes.</p>
            )}
          </>
        )}
      </Loaded>
      {saved && <Notice kind="success">Token lifetimes saved.</Notice>}
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

const POLICIES = [
  ['off', 'Optional', 'each member chooses'],
  ['admins', 'Required for admins', 'admins set it up at their next sign-in'],
  ['everyone', 'Required for everyone', 'every member sets it up at their next sign-in'],
] as const;
type Policy = (typeof POLICIES)[number][0];

export function TwoFactorPolicy() {
  const { session } = useSession();
  const admin = isAdmin(session);
  const [load, reload] = useLoad(async () => (await unwrap(api.GET('/api/settings/two-factor'))).data);
  const [choice, setChoice] = useState<Policy>('off');
  const { busy, error, saved, save } = useSave();
  useEffect(() => {
    if (load.state === 'ok') setChoice(load.data.required_for);
  }, [load]);

  const submit = async (e: Event) => {
    e.preventDefault();
    await save(async () => {
      await unwrap(api.PUT('/api/settings/two-factor', { body: { required_for: choice } }));
    }, reload);
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="tf-policy-h" noValidate>
      <h2 id="tf-policy-h">Two-factor sign-in</h2>
      <Loaded load={load} what="the two-factor policy" retry={reload}>
        {() => (
          <>
            <fieldset disabled={!admin}>
              <legend>Who must use two-factor sign-in</legend>
              {POLICIES.map(([value, label, hint]) => (
                <label class="check" key={value}>
                  <input type="radio" name="tf-policy" checked={choice === value} onChange={() => setChoice(value)} /> {label}{' '}
                  <span class="hint">{hint}</span>
                </label>
              ))}
            </fieldset>
            {admin ? (
              <>
                <p class="hint">
                  Members who must use it and have not set it up are signed out, and set it up right after their password at their next
                  sign-in. Requiring it of admins needs it on your own account first.
                </p>
                <button type="submit" class="primary" disabled={busy}>
                  {busy ? 'Saving…' : 'Save policy'}
                </button>
              </>
            ) : (
              <p class="hint">Only workspace admins can change the policy.</p>
            )}
          </>
        )}
      </Loaded>
      {saved && <Notice kind="success">Two-factor policy saved.</Notice>}
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
