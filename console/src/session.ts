/** The signed-in user, shared by every page. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
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
