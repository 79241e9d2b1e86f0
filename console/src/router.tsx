/** A small history router: pushState navigation, same-origin link interception, popstate. */
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};
addEventListener('popstate', notify);

/** Go to `to` (path and query) without reloading. */
export function navigate(to: string, opts: { replace?: boolean } = {}) {
  if (to === location.pathname + location.search) return notify();
  history[opts.replace ? 'replaceState' : 'pushState'](null, '', to);
  scrollTo(0, 0);
  notify();
}

/** The current path and query; re-renders the caller on every navigation. */
export function useLocation() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

type LinkProps = AnchorHTMLAttributes & { href: string; children?: ComponentChildren };

/** An ordinary link that navigates in-page (modifier clicks still open new tabs). */
export function Link({ href, onClick, ...rest }: LinkProps) {
  return (
    <a
      href={href}
      onClick={(e) => {
        if (typeof onClick === 'function') onClick(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
      {...rest}
    />
  );
}
