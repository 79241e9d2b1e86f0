/** The shell: session bootstrapping, redirects, the navigation and the page for the URL. */
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, onSessionExpired, unwrap } from './api/client';
import { Link, navigate, useLocation } from './router';
import { setOwnZone } from './own-zone';
import { fetchSession, SessionContext, type Session } from './session';
import { ErrorBox, Loading } from './ui';
import { may } from '../../lib/permissions';
import type { Role } from '../../lib/model';
import { SignIn } from './pages/signin';
import { Overview } from './pages/overview';
import { Tokens } from './pages/tokens';
import { Webhooks } from './pages/webhooks';
import { Members } from './pages/members';
import { PipelineSettings } from './pages/pipeline';
import { Account } from './pages/account';
import { Candidates } from './pages/candidates';
import { Requisitions } from './pages/requisitions';
import { fetchMentions, Mentions } from './pages/mentions';
import { SecuritySettings } from './pages/security';
import { TwoFactorStep } from './pages/two-factor-step';

/**
 * A page loaded on first visit: the board, a candidate's profile, a webhook's delivery log and
 * the API reference are each their own chunk, so the first load carries only the shell and the
 * everyday pages.
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>, what: string) {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  return function LazyPage(props: P) {
    const [Page, setPage] = useState<ComponentType<P> | undefined>(() => loaded);
    const [error, setError] = useState<string>();
    const fetchPage = () => {
      setError(undefined);
      pending ??= load();
      pending.then(
        (p) => {
          loaded = p;
          setPage(() => p);
        },
        (err) => {
          pending = undefined; // a later visit (or "Try again") fetches it again
          setError(errorText(err));
        },
      );
    };
    useEffect(() => {
      // Loaded since this render (by an instance that mounted first and is gone): show it.
      if (loaded) setPage(() => loaded);
      else fetchPage();
    }, []);
    if (Page) return <Page {...props} />;
    if (error) return <ErrorBox message={`Could not load ${what}: ${error}`} retry={fetchPage} />;
    return <Loading what={what} />;
  };
}

const RequisitionPage = lazyPage(() => import('./pages/requisition').then((m) => m.RequisitionPage), 'the requisition page');
const WebhookDetail = lazyPage(() => import('./pages/webhook-detail').then((m) => m.WebhookDetail), 'the webhook page');
const Docs = lazyPage(() => import('./pages/docs').then((m) => m.Docs), 'the API reference');
// An admin's page, rarely opened: its own chunk, kept out of everyone's first load.
const CareersSettings = lazyPage(() => import('./pages/careers').then((m) => m.CareersSettings), 'the careers settings');
const AuditLog = lazyPage(() => import('./pages/audit').then((m) => m.AuditLog), 'the audit log');
const CandidatePage = lazyPage(() => import('./pages/candidate').then((m) => m.CandidatePage), 'the candidate page');
const Approvals = lazyPage(() => import('./pages/approvals').then((m) => m.Approvals), 'the approvals page');
const Placements = lazyPage(() => import('./pages/placements').then((m) => m.Placements), 'the placements page');
const MyInterviews = lazyPage(() => import('./pages/my-interviews').then((m) => m.MyInterviews), 'your interviews');
const ImportCandidates = lazyPage(() => import('./pages/import').then((m) => m.ImportCandidates), 'the import page');

/**
 * Recruiting first: the pages a hiring team works in every day. Each entry names the route it
 * reads: a page whose route the user's role may not call is not offered (lib/permissions.ts).
 */
const NAV: [href: string, label: string, reads: string][] = [
  ['/', 'Overview', 'GET /api/overview'],
  ['/candidates', 'Candidates', 'GET /api/candidates'],
  ['/requisitions', 'Requisitions', 'GET /api/requisitions'],
  ['/placements', 'Placements', 'GET /api/placements'],
  ['/interviews', 'My interviews', 'GET /api/interviews'],
  ['/settings/tokens', 'Settings', 'GET /api/tokens'],
  ['/account', 'Account', 'GET /api/session'],
];

/** The workspace's settings, each a page of its own, listed on every settings page (by role, as NAV). */
export const SETTINGS_NAV: [href: string, label: string, reads: string][] = [
  ['/settings/tokens', 'API tokens', 'GET /api/tokens'],
  ['/settings/webhooks', 'Webhooks', 'GET /api/webhooks'],
  ['/settings/members', 'Members', 'GET /api/members'],
  ['/settings/pipeline', 'Pipeline', 'GET /api/settings/pipeline'],
  ['/settings/security', 'Security', 'GET /api/settings/two-factor'],
  ['/settings/careers', 'Careers site', 'GET /api/settings/careers'],
  ['/settings/audit', 'Audit log', 'GET /api/audit'],
  ['/docs', 'API docs', 'GET /api/session'],
];
const inSettings = (path: string) => path === '/docs' || path.startsWith('/settings/');

/** Where the signed-in user may go: only our own paths, never another origin. */
const safeNext = (next: string | null) => (next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/signin') ? next : '/');
/** Where a sign-in lands when it names no page: an interviewer's day starts at their interviews. */
const landing = (next: string, role: Role) => (next === '/' && role === 'interviewer' ? '/interviews' : next);

type Why = 'expired' | 'signed-out' | undefined;

export function App() {
  const { path, query } = useLocation();
  // undefined: still asking the server; null: nobody signed in.
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [bootError, setBootError] = useState<string>();
  const [why, setWhy] = useState<Why>();
  const current = useRef<Session | null | undefined>(undefined);
  current.current = session;

  const load = async () => {
    setBootError(undefined);
    try {
      setSession(await fetchSession());
    } catch (err) {
      if ((err as { status?: number }).status === 401) setSession(null);
      else setBootError(errorText(err));
    }
  };

  useEffect(() => {
    onSessionExpired(() => {
      if (!current.current) return; // nobody was signed in: nothing expired
      setSession(null);
      setWhy('expired');
      navigate(`/signin?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
    });
    void load();
  }, []);

  // Redirects, decided from the URL and the session.
  let redirect: string | undefined;
  if (path === '/settings' || path === '/settings/') redirect = '/settings/tokens';
  else if (session === null && path !== '/signin' && path !== '/docs')
    redirect = `/signin?next=${encodeURIComponent(path + location.search)}`;
  else if (session && path === '/signin') redirect = landing(safeNext(query.get('next')), session.user.role);
  else if (session?.user.must_change_password && !session.pending && path !== '/account' && path !== '/docs') redirect = '/account';
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);

  if (bootError)
    return (
      <main id="main">
        <ErrorBox message={`Could not reach the workspace API: ${bootError}`} retry={load} />
      </main>
    );
  if (path === '/docs' && !session) {
    return (
      <Frame>
        <Docs />
      </Frame>
    );
  }
  if (session === undefined || redirect)
    return (
      <main id="main">
        <Loading what="the workspace console" />
      </main>
    );
  if (session === null) {
    return (
      <Frame>
        <SignIn
          reason={why}
          next={safeNext(query.get('next'))}
          onSignedIn={(s) => {
            setWhy(undefined);
            setSession(s);
          }}
        />
      </Frame>
    );
  }

  const signOut = async () => {
    try {
      await unwrap(api.DELETE('/api/session'));
    } catch {
      /* already gone: signing out anyway */
    }
    setSession(null);
    setWhy('signed-out');
    navigate('/signin', { replace: true });
  };

  // Half signed in: the second step is all this session reaches, whatever the URL.
  if (session.pending)
    return (
      <Frame>
        <TwoFactorStep session={session} onSignedIn={setSession} onSignOut={signOut} />
      </Frame>
    );

  // Every time the console shows is read in the member's own zone (console/src/zones.ts).
  setOwnZone(session.user.time_zone);
  return (
    <SessionContext.Provider value={{ session, refresh: load }}>
      <Frame
        nav={
          <>
            <nav aria-label="Main">
              <ul>
                {NAV.filter(([, , reads]) => may(session.user.role, reads)).map(([href, label]) => (
                  <li key={href}>
                    <Link href={href} aria-current={currentOf(path, href)}>
                      {label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <div class="who">
              <MentionCount path={path} />
              {may(session.user.role, 'GET /api/candidates/{id}/offers') && <ApprovalCount path={path} userId={session.user.id} />}
              <span>
                {session.user.email} <span class="badge">{session.user.role}</span>
              </span>
              <button type="button" onClick={signOut}>
                Sign out
              </button>
            </div>
          </>
        }
      >
        {inSettings(path) && <SettingsNav path={path} role={session.user.role} />}
        <Page path={path} />
      </Frame>
    </SessionContext.Provider>
  );
}

/** The header's link to your mentions, with the unread count; read again on each navigation. */
function MentionCount({ path }: { path: string }) {
  const [unread, setUnread] = useState<number>();
  useEffect(() => {
    fetchMentions().then(
      (p) => setUnread(p.unread),
      () => setUnread(undefined),
    );
  }, [path]);
  return (
    <Link href="/mentions" aria-current={path === '/mentions' ? 'page' : undefined}>
      Mentions{unread ? <span class="badge">{unread} unread</span> : null}
    </Link>
  );
}

/**
 * The header's link to Approvals while offers wait for the member's decision, with how many
 * (GET /api/offers/approvals: one entry and the count, read on each navigation and after a decision).
 */
function ApprovalCount({ path, userId }: { path: string; userId: string }) {
  const [waiting, setWaiting] = useState<number>();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const again = () => setTick((t) => t + 1);
    addEventListener('offer-decided', again);
    return () => removeEventListener('offer-decided', again);
  }, []);
  useEffect(() => {
    let live = true;
    import('./offer-data')
      .then((m) => m.fetchAwaiting({ limit: 1 }))
      .then(
        (r) => live && setWaiting(r.count),
        () => live && setWaiting(undefined),
      );
    return () => {
      live = false;
    };
  }, [path, userId, tick]);
  if (!waiting && path !== '/approvals') return null;
  return (
    <Link href="/approvals" aria-current={path === '/approvals' ? 'page' : undefined}>
      Approvals{waiting ? <span class="badge">{waiting} waiting</span> : null}
    </Link>
  );
}

const isCurrent = (path: string, href: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`));
/** The main entry of the page shown: `page` on its own entry, `true` (a section) for Settings on a settings page. */
const currentOf = (path: string, href: string) =>
  href === SETTINGS_NAV[0]![0] ? (inSettings(path) ? 'true' : undefined) : isCurrent(path, href) ? 'page' : undefined;

/** The settings pages' own menu, above each of them. */
function SettingsNav({ path, role }: { path: string; role: Role }) {
  return (
    <nav aria-label="Settings" class="subnav">
      <ul>
        {SETTINGS_NAV.filter(([, , reads]) => may(role, reads)).map(([href, label]) => (
          <li key={href}>
            <Link href={href} aria-current={isCurrent(path, href) ? 'page' : undefined}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The last path segment after `prefix`, decoded; undefined when the path is not `prefix/<one segment>`. */
const idAfter = (prefix: string, path: string) => {
  const m = new RegExp(`^${prefix}/([^/]+)$`).exec(path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
};

function Page({ path }: { path: string }) {
  const hook = idAfter('/settings/webhooks', path);
  if (hook) return <WebhookDetail id={hook} />;
  // Before the candidate ids: `import` is a page, not a candidate.
  if (path === '/candidates/import') return <ImportCandidates />;
  const candidate = idAfter('/candidates', path);
  if (candidate) return <CandidatePage key={candidate} id={candidate} />;
  const req = idAfter('/requisitions', path);
  if (req) return <RequisitionPage key={req} id={req} />;
  switch (path) {
    case '/candidates':
      return <Candidates />;
    case '/requisitions':
      return <Requisitions />;
    case '/':
      return <Overview />;
    case '/settings/tokens':
      return <Tokens />;
    case '/settings/webhooks':
      return <Webhooks />;
    case '/settings/members':
      return <Members />;
    case '/settings/pipeline':
      return <PipelineSettings />;
    case '/settings/security':
      return <SecuritySettings />;
    case '/settings/careers':
      return <CareersSettings />;
    case '/settings/audit':
      return <AuditLog />;
    case '/account':
      return <Account />;
    case '/docs':
      return <Docs />;
    case '/mentions':
      return <Mentions />;
    case '/approvals':
      return <Approvals />;
    case '/placements':
      return <Placements />;
    case '/interviews':
      return <MyInterviews />;
    default:
      return (
        <>
          <h1>Page not found</h1>
          <p>
            There is no page at <code>{path}</code>. <Link href="/">Go to the overview</Link>.
          </p>
        </>
      );
  }
}

function Frame({ nav, children }: { nav?: preact.ComponentChildren; children: preact.ComponentChildren }) {
  return (
    <>
      <header class="top">
        <a class="skip" href="#main">
          Skip to content
        </a>
        <Link href="/" class="brand">
          Talent Pipeline
        </Link>
        {nav}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
