/** Sign in with the cookie session. */
import { useState } from 'preact/hooks';
import { api, ApiError, errorText, unwrap } from '../api/client';
import type { Session } from '../session';
import { duration, Notice, PageTitle } from '../ui';

export function SignIn({
  reason,
  next,
  onSignedIn,
}: {
  reason?: 'expired' | 'signed-out';
  next: string;
  onSignedIn: (s: Session) => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await unwrap(api.POST('/api/session', { body: { email, password } }));
      onSignedIn(data);
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        setError(
          err.retryAfter
            ? `Too many failed sign-ins for this account. Try again in ${duration(err.retryAfter)}, or ask a workspace admin to clear the lockout.`
            : `Too many requests: ${err.message}. Wait a moment and try again.`,
        );
      } else if (err instanceof ApiError && err.status === 401) {
        setError(`${err.message.replace(/^./, (c) => c.toUpperCase())}. Check both and try again.`);
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="narrow">
      <PageTitle title="Sign in">Sign in to your workspace</PageTitle>
      {reason === 'expired' && (
        <Notice kind="warning">
          Your session has ended (it timed out, or you signed out elsewhere). Sign in again
          {next !== '/' ? ' to go back to the page you were on' : ''}.
        </Notice>
      )}
      {reason === 'signed-out' && <Notice>You have signed out.</Notice>}
      <form onSubmit={submit} class="card">
        <div class="field">
          <label for="email">Email</label>
          <input id="email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </div>
        {error && (
          <p class="alert error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
