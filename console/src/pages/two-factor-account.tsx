/** The account page's two-factor section: its state, setting it up, and turning it off with the password. */
import { useState } from 'preact/hooks';
import { api, ApiError, errorText, unwrap } from '../api/client';
import { useSession } from '../session';
import { duration, Loaded, Notice, useLoad, When } from '../ui';
import { RecoveryCodes, TwoFactorSetup } from './two-factor-setup';

export function TwoFactorSection() {
  const { refresh } = useSession();
  const [load, reload] = useLoad(async () => (await unwrap(api.GET('/api/account/two-factor'))).data);
  const [mode, setMode] = useState<'view' | 'setup' | 'codes'>('view');
  const [codes, setCodes] = useState<string[]>([]);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);

  const disable = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(api.POST('/api/account/two-factor/disable', { body: { password } }));
      setPassword('');
      setNotice('Two-factor sign-in is off.');
      await Promise.all([reload(), refresh()]);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 429 && err.retryAfter
          ? `${errorText(err)}. Try again in ${duration(err.retryAfter)}.`
          : errorText(err),
      );
    } finally {
      setBusy(false);
    }
  };

  if (mode === 'setup')
    return (
      <TwoFactorSetup
        onEnrolled={(c) => {
          setCodes(c);
          setMode('codes');
        }}
        onCancel={() => setMode('view')}
      />
    );
  if (mode === 'codes')
    return (
      <RecoveryCodes
        codes={codes}
        onDone={async () => {
          setCodes([]);
          setMode('view');
          setNotice('Two-factor sign-in is on.');
          await Promise.all([reload(), refresh()]);
        }}
      />
    );
  return (
    <section class="card" aria-labelledby="tf-h">
      <h2 id="tf-h">Two-factor sign-in</h2>
      {notice && <Notice kind="success">{notice}</Notice>}
      <Loaded load={load} what="your two-factor sign-in" retry={reload}>
        {(tf) =>
          tf.enabled ? (
            <>
              <p>
                On since <When iso={tf.enabled_at} />. {tf.recovery_codes_left} of 10 recovery codes left.
              </p>
              {tf.recovery_codes_left <= 3 && (
                <Notice kind="warning">
                  Few recovery codes left. Ask a workspace admin to reset your two-factor sign-in, then set it up again for new codes.
                </Notice>
              )}
              {tf.required ? (
                <p class="hint">Your workspace requires two-factor sign-in, so it cannot be turned off.</p>
              ) : (
                <form onSubmit={disable} noValidate>
                  <div class="field">
                    <label for="tf-off-password">Your password, to turn it off</label>
                    <input
                      id="tf-off-password"
                      type="password"
                      autoComplete="current-password"
                      required
                      value={password}
                      onInput={(e) => setPassword(e.currentTarget.value)}
                    />
                  </div>
                  <button type="submit" disabled={busy}>
                    {busy ? 'Turning off…' : 'Turn off two-factor sign-in'}
                  </button>
                </form>
              )}
            </>
          ) : (
            <>
              <p>
                Off. With two-factor sign-in, signing in also asks for a code from an app on your phone
                {tf.required ? '; your workspace requires it' : ''}.
              </p>
              <button type="button" class="primary" onClick={() => setMode('setup')}>
                Set up two-factor sign-in
              </button>
            </>
          )
        }
      </Loaded>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
