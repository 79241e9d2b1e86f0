/**
 * The sign-in's second step, after the password: a code from the authenticator app (or a
 * recovery code), or, when the workspace requires two-factor and the user has none yet, setting
 * it up. Until then the server answers nothing else to this session.
 */
import { useRef, useState } from 'preact/hooks';
import { api, ApiError, errorText, unwrap } from '../api/client';
import { fetchSession, type Session } from '../session';
import { duration, Notice, PageTitle, useFocusOnShow } from '../ui';
import { RecoveryCodes, TwoFactorSetup } from './two-factor-setup';

export function TwoFactorStep({
  session,
  onSignedIn,
  onSignOut,
}: {
  session: Session;
  onSignedIn: (s: Session) => void;
  onSignOut: () => void;
}) {
  return (
    <div class="narrow">
      {session.pending === 'two_factor_enrolment' ? <Enrol onSignedIn={onSignedIn} /> : <EnterCode onSignedIn={onSignedIn} />}
      <p>
        Signed in as <strong>{session.user.email}</strong>.{' '}
        <button type="button" class="link" onClick={onSignOut}>
          Sign out
        </button>
      </p>
    </div>
  );
}

function EnterCode({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useFocusOnShow(field, [recovery]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const body = recovery ? { recovery_code: value.trim() } : { code: value.replace(/\s+/g, '') };
      const { data } = await unwrap(api.POST('/api/session/two-factor', { body }));
      onSignedIn(data);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 429 && err.retryAfter
          ? `Too many failed sign-ins for this account. Try again in ${duration(err.retryAfter)}, or ask a workspace admin to clear the lockout.`
          : `${errorText(err).replace(/^./, (c) => c.toUpperCase())}.`,
      );
      field.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle title="Two-factor sign-in">Enter your code</PageTitle>
      <form class="card" onSubmit={submit} noValidate>
        <div class="field">
          <label for="tf-code">{recovery ? 'Recovery code' : 'Code from your authenticator app'}</label>
          <input
            id="tf-code"
            ref={field}
            key={recovery ? 'recovery' : 'code'}
            {...(recovery ? { autoComplete: 'off', maxLength: 40 } : { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 7 })}
            required
            aria-describedby="tf-code-hint"
            value={value}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
          <p id="tf-code-hint" class="hint">
            {recovery ? 'One of the codes you saved when you set up two-factor sign-in; each works once.' : 'Six digits.'}
          </p>
        </div>
        {error && (
          <p class="alert error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>{' '}
        <button
          type="button"
          onClick={() => {
            setRecovery(!recovery);
            setValue('');
            setError(undefined);
          }}
        >
          {recovery ? 'Use the app instead' : 'Use a recovery code'}
        </button>
      </form>
    </>
  );
}

function Enrol({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [codes, setCodes] = useState<string[]>();
  const [error, setError] = useState<string>();
  const finish = async () => {
    try {
      onSignedIn(await fetchSession());
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <>
      <PageTitle title="Set up two-factor sign-in">Set up two-factor sign-in</PageTitle>
      <Notice kind="warning">Your workspace requires two-factor sign-in. Set it up to continue.</Notice>
      {codes ? <RecoveryCodes codes={codes} onDone={finish} /> : <TwoFactorSetup onEnrolled={setCodes} />}
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
