import type { MouseEvent, ReactNode } from 'react';
import { staffApi } from '../api';
import { useLive } from '../live/LiveData';
import { allowedPages } from '../pages';
import { navigate } from '../router';
import { useSession } from '../session/SessionContext';

function NavLink({ to, current, children }: { to: string; current: string; children: ReactNode }) {
  const follow = (event: MouseEvent) => {
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={follow} aria-current={current === to ? 'page' : undefined}>
      {children}
    </a>
  );
}

/** The signed-in frame: the pages the user's role allows, the unacknowledged alerts, Sign out. */
export function Shell({ path, children }: { path: string; children: ReactNode }) {
  const { user, can, signedOut } = useSession();
  const { unacknowledged } = useLive();
  const signOut = async () => {
    await staffApi.signOut();
    signedOut();
  };
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Gatehouse</span>
        <nav aria-label="Console">
          {allowedPages(can).map((page) => (
            <NavLink key={page.path} to={page.path} current={path}>
              {page.name}
              {page.path === '/console/alerts' && unacknowledged > 0 ? (
                <span className="badge"> {unacknowledged}</span>
              ) : null}
            </NavLink>
          ))}
        </nav>
        <span className="who">
          {user.name} <span className="role">({user.role})</span>
        </span>
        <button type="button" className="quiet" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main className="page">{children}</main>
    </div>
  );
}
