/** The signed-in user, shared by every page. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { may, type RouteName } from '../../lib/permissions';
import { api, unwrap } from './api/client';

export const fetchSession = async () => (await unwrap(api.GET('/api/session'))).data;
export type Session = Awaited<ReturnType<typeof fetchSession>>;

export interface SessionState {
  session: Session;
  /** Fetch the session again (after a password change, say). */
  refresh: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}

export const isAdmin = (s: Session) => s.user.role === 'admin';

/**
 * Whether the signed-in user's role may call a route (the permission table the API enforces): the
 * console shows a button or form only when the call behind it is allowed.
 */
export function useMay(): (route: RouteName) => boolean {
  const { session } = useSession();
  return (route) => may(session.user.role, route);
}
