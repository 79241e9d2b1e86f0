/**
 * The signed-in user's own password (the first stop for a user with a temporary password), their
 * time zone and two-factor sign-in.
 */
import { useState } from 'preact/hooks';
import { api, ApiError, errorText, unwrap } from '../api/client';
import { navigate } from '../router';
import { useSession } from '../session';
import { duration, Notice, PageTitle } from '../ui';
import { browserZone, zones } from '../zones';
import { TwoFactorSection } from './two-factor-account';

export function Account() {
  const { session, refresh } = useSession();
  const mustChange = session.user.must_change_password;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const mismatch = confirm !== '' && confirm !== next;
  const tooShort = next !== '' && next.length < 12;

  const submit = async (e: Event) => {
    e.preventDefault();
    if (next.length < 12) return setError('The new password must be at least 12 characters.');
    if (next !== confirm) return setError('The two new passwords differ.');
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(api.PUT('/api/session/password', { body: { current_password: current, new_password: next } }));
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(true);
      await refresh();
      if (mustChange) navigate('/');
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 429 && err.retryAfter
          ? `${errorText(err)}. Try again in ${duration(err.retryAfter)}.`
          : errorText(err), // what was typed stays in the form
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="narrow">
      <PageTitle title="Account">Your account</PageTitle>
      <p>
        Signed in as <strong>{session.user.email}</strong> ({session.user.role}) in {session.tenant.name}.
      </p>
      {mustChange && <Notice kind="warning">You signed in with a temporary password. Choose your own password to continue.</Notice>}
      {done && <Notice kind="success">Password changed. Your other sessions have been signed out.</Notice>}
      <form class="card" onSubmit={submit} aria-labelledby="pw-h" noValidate>
        <h2 id="pw-h">Change password</h2>
        <div class="field">
          <label for="pw-current">Current password</label>
          <input
            id="pw-current"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="pw-new">New password</label>
          <input
            id="pw-new"
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            maxLength={256}
            aria-invalid={tooShort ? 'true' : 'false'}
            aria-describedby="pw-new-hint"
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
          <p id="pw-new-hint" class={tooShort ? 'field-error' : 'hint'} aria-live="polite">
            At least 12 characters{tooShort ? ` (${next.length} so far)` : ''}. A few unrelated words work well.
          </p>
        </div>
        <div class="field">
          <label for="pw-confirm">New password again</label>
          <input
            id="pw-confirm"
            type="password"
            autoComplete="new-password"
            required
            aria-invalid={mismatch ? 'true' : 'false'}
            aria-describedby="pw-confirm-hint"
            value={confirm}
            onInput={(e) => setConfirm(e.currentTarget.value)}
          />
          <p id="pw-confirm-hint" class={mismatch ? 'field-error' : 'hint'} aria-live="polite">
            {mismatch ? 'Does not match the new password yet.' : 'Type it once more.'}
          </p>
        </div>
        {error && (
          <p class="alert error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Change password'}
        </button>
      </form>
      {!mustChange && <TimeZoneSection />}
      {!mustChange && <TwoFactorSection />}
    </div>
  );
}

/**
 * The member's own time zone: the console shows every time in it, and their scorecard reminders
 * come at 9:00 in it. "Your browser's" sends null: the console then follows the browser, and
 * reminders the interview's zone.
 */
function TimeZoneSection() {
  const { session, refresh } = useSession();
  const [zone, setZone] = useState(session.user.time_zone ?? '');
  const [said, setSaid] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaid(undefined);
    try {
      await unwrap(api.PUT('/api/account/time-zone', { body: { time_zone: zone || null } }));
      await refresh();
      setSaid(zone ? `Times are now shown in ${zone}.` : `Times now follow your browser (${browserZone()}).`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="tz-h" noValidate>
      <h2 id="tz-h">Time zone</h2>
      <div class="field">
        <label for="tz-zone">Your time zone</label>
        <select id="tz-zone" value={zone} aria-describedby="tz-hint" onChange={(e) => setZone(e.currentTarget.value)}>
          <option value="">Your browser's ({browserZone()})</option>
          {zones().map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        <p id="tz-hint" class="hint">
          The console shows times in it, and your feedback reminders come at 9:00 in it.
        </p>
      </div>
      <p role="status" aria-live="polite" class={said ? 'alert success' : 'live-empty'}>
        {said}
      </p>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save time zone'}
      </button>
    </form>
  );
}
