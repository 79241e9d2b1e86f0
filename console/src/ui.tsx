/** Shared pieces: load states, alerts, the confirmation dialog, the shown-once secret box. */
import type { ComponentChildren } from 'preact';
import { type Inputs, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { errorText } from './api/client';

export type Load<T> =
  | { state: 'loading'; data?: undefined; error?: undefined }
  | { state: 'error'; data?: undefined; error: string }
  | { state: 'ok'; data: T; error?: undefined };

/**
 * Run `fn` on mount (and when `deps` change); `reload()` runs it again, keeping the old data
 * meanwhile. `pending` is true while a run is in flight, so a page can hold back actions that
 * build on the data shown (a next page) until the newer data has landed.
 */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[] = []) {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const [pending, setPending] = useState(true);
  const seq = useRef(0);
  const run = useCallback(async () => {
    const mine = ++seq.current;
    setPending(true);
    try {
      const data = await fn();
      if (mine === seq.current) setLoad({ state: 'ok', data });
    } catch (err) {
      if (mine === seq.current) setLoad({ state: 'error', error: errorText(err) });
    } finally {
      if (mine === seq.current) setPending(false);
    }
  }, deps);
  useEffect(() => {
    setLoad({ state: 'loading' });
    void run();
  }, [run]);
  return [load, run, pending] as const;
}

/** A page of a cursor-paged list, as the API answers it. */

/**
 * A settings form's save: `save(write, then)` runs the request `write` with the form busy, after
 * clearing the last error and "saved"; once it succeeded the form shows "saved" and `then` runs
 * (the page's reload, which may replace the form). A failure's sentence lands in `error`, and the
 * typed values stay, since nothing here touches them. `setError` is for the form's own checks.
 */
export function useSave() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const save = async (write: () => Promise<unknown>, then?: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await write();
      setSaved(true);
      await then?.();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, saved, setSaved, save };
}
export interface Page<R> {
  data: R[];
  next_cursor: string | null;
}

/**
 * The older pages of a list whose first page is `load` (from useLoad, `refreshing` its pending
 * flag): the rows they added, and the "Load older" button with its error, to render below the
 * list. A new first page forgets the older ones. The button waits while a refresh is in flight:
 * the refresh replaces the first page and forgets older pages when it lands, so they would
 * vanish right after showing; an older page fetched for a first page since replaced is dropped.
 */
export function useOlderPages<R>(
  load: Load<Page<R>>,
  refreshing: boolean,
  fetchOlder: (cursor: string) => Promise<Page<R>>,
  label: string,
): [R[], ComponentChildren] {
  const [older, setOlder] = useState<R[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const shown = useRef(load);
  shown.current = load;
  useEffect(() => {
    setOlder([]);
    setCursor(load.state === 'ok' ? load.data.next_cursor : null);
  }, [load]);
  const more = (
    <>
      {error && <ErrorBox message={error} />}
      {cursor && (
        <button
          type="button"
          disabled={refreshing}
          onClick={async () => {
            setError(undefined);
            const base = load;
            try {
              const next = await fetchOlder(cursor);
              if (shown.current !== base) return;
              setOlder((o) => [...o, ...next.data]);
              setCursor(next.next_cursor);
            } catch (err) {
              setError(errorText(err));
            }
          }}
        >
          {label}
        </button>
      )}
    </>
  );
  return [older, more];
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorBox({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div class="alert error" role="alert">
      <p>{message}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Notice({ children, kind = 'info' }: { children: ComponentChildren; kind?: 'info' | 'success' | 'warning' }) {
  return (
    <div class={`alert ${kind}`} role="status">
      {children}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}

/** Renders the states of a Load: loading, error (with retry), then `children(data)`. */
export function Loaded<T>({
  load,
  what,
  retry,
  children,
}: {
  load: Load<T>;
  what: string;
  retry: () => void;
  children: (data: T) => ComponentChildren;
}) {
  if (load.state === 'loading') return <Loading what={what} />;
  if (load.state === 'error') return <ErrorBox message={`Could not load ${what}: ${load.error}`} retry={retry} />;
  return <>{children(load.data)}</>;
}

/** A page's heading, focused after navigation so screen readers announce the new page. */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Talent Pipeline`;
    ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

/**
 * A modal confirmation on native <dialog> (focus trap, Escape to cancel). `onConfirm` may
 * throw; its message shows in the dialog, which stays open.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  /** Keeps the confirm button off until the dialog's own check passes (a name typed, say). */
  confirmDisabled?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      setError(undefined);
      d.showModal();
    } else if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose} class="dialog">
      <h2 id={titleId}>{props.title}</h2>
      <div>{props.children}</div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={() => ref.current?.close()} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          class={props.danger ? 'danger' : 'primary'}
          disabled={busy || props.confirmDisabled}
          onClick={async () => {
            setBusy(true);
            setError(undefined);
            try {
              await props.onConfirm();
              ref.current?.close();
            } catch (err) {
              setError(errorText(err));
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? 'Working…' : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/**
 * Moves focus to `ref` as what holds it appears: in the render's own task, as a layout effect does,
 * not after the next paint (an effect), so that no click or keystroke lands in the page between the
 * two and has the focus taken from under it (seen: text typed into a form's second field went to
 * its first, focused a frame later on a busy machine). `inputs`: what shows it anew; `when`: false
 * where a change of them shows nothing to focus (a render before the thing appears).
 */
export function useFocusOnShow(ref: { current: { focus(): void } | null }, inputs: Inputs = [], when = true) {
  useLayoutEffect(() => {
    if (when) ref.current?.focus();
  }, inputs);
}

/** A secret shown once: read-only field, copy button, and a plain warning. */
export function ShownOnce({ label, value, warning, onDone }: { label: string; value: string; warning: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  const field = useRef<HTMLInputElement>(null);
  const id = `once-${label.replace(/\W+/g, '-').toLowerCase()}`;
  useFocusOnShow(field);
  return (
    <section class="once" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{label}</h2>
      <p class="warning">
        <strong>Copy it now.</strong> {warning}
      </p>
      <div class="copy-row">
        <label for={id} class="sr-only">
          {label}
        </label>
        <input id={id} ref={field} readOnly value={value} class="mono" onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setCopied('Copied to the clipboard.');
            } catch {
              field.current?.select();
              setCopied('Copying was refused by the browser: the text is selected, press Ctrl+C.');
            }
          }}
        >
          Copy
        </button>
      </div>
      <p role="status" class="hint">
        {copied}
      </p>
      <button type="button" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** A timestamp as a <time> element in the reader's locale. */
export function When({ iso, empty = '—' }: { iso: string | null | undefined; empty?: string }) {
  if (!iso) return <>{empty}</>;
  const d = new Date(iso);
  return <time dateTime={iso}>{Number.isNaN(d.getTime()) ? iso : dateFmt.format(d)}</time>;
}

/** `seconds` as "4 minutes" / "35 seconds". */
export function duration(seconds: number) {
  if (seconds >= 120) return `${Math.ceil(seconds / 60)} minutes`;
  if (seconds >= 60) return '1 minute';
  return `${Math.max(1, Math.round(seconds))} second${Math.round(seconds) === 1 ? '' : 's'}`;
}

/**
 * A table's horizontal scroller. Narrow screens scroll it, so it must be reachable from the
 * keyboard (axe: scrollable-region-focusable) and named for screen readers.
 */
export function Scroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus and be named (axe: scrollable-region-focusable); <section> would add a landmark per table
    <div class="table-wrap" role="region" aria-label={`${label} table`} tabIndex={0}>
      {children}
    </div>
  );
}
