import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { staffApi } from '../api';
import { waitingForUser } from '../approvals/waiting';
import { useWords } from '../language/ConsoleLanguage';
import { useLive } from '../live/LiveData';
import { allowedPages } from '../pages';
import { useSession } from '../session/SessionContext';

const APPROVALS = '/console/approvals';

function NavLink({
  to,
  current,
  label,
  children,
}: {
  to: string;
  current: string;
  /** The accessible name, where the visible words alone would read poorly. */
  label?: string;
  children: ReactNode;
}) {
  // A page's own sub-pages (a site's form) keep its link current.
  const here = current === to || current.startsWith(`${to}/`);
  return (
    <Link to={to} aria-current={here ? 'page' : undefined} aria-label={label}>
      {children}
    </Link>
  );
}

/** The signed-in frame: the pages the user's role allows, who waits for them, the unacknowledged alerts, Sign out. */
export function Shell({ path, children }: { path: string; children: ReactNode }) {
  const { user, can, signedOut } = useSession();
  const words = useWords();
  const { unacknowledged, people, vehicles } = useLive();
  const waiting = waitingForUser(can, people, vehicles);
  const signOut = async () => {
    await staffApi.signOut();
    signedOut();
  };
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">{words.t('shell.brand')}</span>
        <nav aria-label={words.t('shell.nav')}>
          {allowedPages(can).map((page) => (
            <NavLink
              key={page.path}
              to={page.path}
              current={path}
              // "Approvals, 3 waiting" is read out; the badge shows "Approvals 3" (docs/running-a-site.md).
              label={
                page.path === APPROVALS && waiting > 0
                  ? words.t('shell.approvalsWaiting', { count: waiting })
                  : undefined
              }
            >
              {words.t(page.name)}
              {page.path === '/console/alerts' && unacknowledged > 0 ? (
                <span className="badge"> {unacknowledged}</span>
              ) : null}
              {page.path === APPROVALS && waiting > 0 ? <span className="badge waiting"> {waiting}</span> : null}
            </NavLink>
          ))}
        </nav>
        <span className="who">
          {user.name} <span className="role">{words.t('shell.role', { role: user.role })}</span>
        </span>
        <button type="button" className="quiet" onClick={() => void signOut()}>
          {words.t('shell.signOut')}
        </button>
      </header>
      <main className="page">{children}</main>
    </div>
  );
}
