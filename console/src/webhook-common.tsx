/** What the webhook pages share: status badges and the URL check made as the user types. */
import type { paths } from './api/client';
import { EVENT_HELP } from './labels';

/** The event types a subscription lists, as the API's schema types them. */
export type EventList = NonNullable<paths['/api/webhooks']['post']['requestBody']['content']['application/json']['events']>;

export const EVENT_TYPES = Object.keys(EVENT_HELP);

type Endpoint = { active: boolean; disabled_reason: string | null; status?: 'active' | 'disabled' | 'deleted' };

/** active, disabled (with the service's reason) or deleted. */
export function statusOf(w: Endpoint): 'active' | 'disabled' | 'deleted' {
  return w.status ?? (w.active ? 'active' : w.disabled_reason === 'deleted' ? 'deleted' : 'disabled');
}

export function StatusBadge({ w }: { w: Endpoint }) {
  const s = statusOf(w);
  return (
    <span>
      <span class={`badge status-${s}`}>{s}</span>
      {s === 'disabled' && w.disabled_reason && <span class="hint"> {w.disabled_reason}</span>}
    </span>
  );
}

/** Why `u` would be refused, in words, or undefined when it looks fine. Mirrors the API's rule. */
export function urlProblem(u: string): string | undefined {
  if (!u.trim()) return 'Enter the https:// address of your receiver.';
  let url: URL;
  try {
    url = new URL(u.trim());
  } catch {
    return 'This is not a complete URL yet, e.g. https://hooks.example.com/talent.';
  }
  if (url.protocol !== 'https:') return 'The URL must start with https:// (webhooks are only sent over TLS).';
  if (url.username || url.password) return 'The URL must not contain a user name or password.';
  if (u.length > 2048) return 'The URL must be at most 2048 characters.';
  return undefined;
}

/** An https URL field that says what is wrong while the user types. */
export function UrlField({ id, value, onInput }: { id: string; value: string; onInput: (v: string) => void }) {
  const problem = value ? urlProblem(value) : undefined;
  return (
    <div class="field">
      <label for={id}>Endpoint URL</label>
      <input
        id={id}
        type="url"
        inputMode="url"
        required
        placeholder="https://hooks.example.com/talent"
        value={value}
        aria-invalid={problem ? 'true' : 'false'}
        aria-describedby={`${id}-msg`}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      <p id={`${id}-msg`} class={problem ? 'field-error' : 'hint'} aria-live="polite">
        {problem ?? (value ? 'Looks good: an https:// URL.' : 'Must be https://. Private and internal addresses are refused.')}
      </p>
    </div>
  );
}

export function EventChecks({ value, onChange, legend = 'Events' }: { value: string[]; onChange: (v: string[]) => void; legend?: string }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <p class="hint">Leave all unchecked to receive every event type, including future ones.</p>
      {EVENT_TYPES.map((t) => (
        <label class="check" key={t}>
          <input
            type="checkbox"
            checked={value.includes(t)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...value, t] : value.filter((x) => x !== t))}
          />
          <code>{t}</code> <span class="hint">{EVENT_HELP[t]}</span>
        </label>
      ))}
    </fieldset>
  );
}
