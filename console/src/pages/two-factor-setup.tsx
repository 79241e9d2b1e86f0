/**
 * Setting up two-factor sign-in: the QR code (and the secret, for typing in), a code from the app
 * to confirm it, then the recovery codes, shown once. Used by the account page and by the sign-in
 * step of a workspace that requires two-factor.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useFocusOnShow } from '../ui';
import { api, errorText, unwrap } from '../api/client';

type Started = { secret: string; otpauth_uri: string; qr_svg: string };

export function TwoFactorSetup({ onEnrolled, onCancel }: { onEnrolled: (recoveryCodes: string[]) => void; onCancel?: () => void }) {
  const [started, setStarted] = useState<Started>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const codeField = useRef<HTMLInputElement>(null);

  const start = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setStarted((await unwrap(api.POST('/api/account/two-factor'))).data);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    void start();
  }, []);
  useFocusOnShow(codeField, [started]);

  const confirm = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await unwrap(api.POST('/api/account/two-factor/confirm', { body: { code: code.replace(/\s+/g, '') } }));
      onEnrolled(data.recovery_codes);
    } catch (err) {
      setError(errorText(err));
      codeField.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="tf-setup-h">
      <h2 id="tf-setup-h">Set up two-factor sign-in</h2>
      {!started && !error && <p>Preparing…</p>}
      {started && (
        <>
          <ol>
            <li>Open an authenticator app on your phone (any app for time-based codes).</li>
            <li>Scan this QR code with it, or type the key below.</li>
            <li>Enter the six-digit code the app shows.</li>
          </ol>
          <img
            class="qr"
            width={200}
            height={200}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(started.qr_svg)}`}
            alt="QR code for your authenticator app; the same key is written out below"
          />
          <p>
            Key:{' '}
            <code class="mono" data-testid="totp-secret">
              {started.secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
          </p>
          <form onSubmit={confirm} noValidate>
            <div class="field">
              <label for="tf-setup-code">Code from the app</label>
              <input
                id="tf-setup-code"
                ref={codeField}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]*"
                maxLength={7}
                required
                value={code}
                onInput={(e) => setCode(e.currentTarget.value)}
              />
            </div>
            <button type="submit" class="primary" disabled={busy}>
              {busy ? 'Checking…' : 'Turn on two-factor sign-in'}
            </button>{' '}
            {onCancel && (
              <button type="button" onClick={onCancel}>
                Cancel
              </button>
            )}
          </form>
        </>
      )}
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** The recovery codes, shown once after the set-up. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnShow(heading);
  return (
    <section class="once" aria-labelledby="tf-codes-h">
      <h2 id="tf-codes-h" ref={heading} tabIndex={-1}>
        Your recovery codes
      </h2>
      <p class="warning">
        <strong>Save them now: they are shown only this once.</strong> Each code signs you in once if you lose your phone.
      </p>
      <ul class="mono recovery-codes" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <button type="button" class="primary" onClick={onDone}>
        I have saved them
      </button>
    </section>
  );
}
