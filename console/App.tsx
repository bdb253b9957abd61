import { useCallback, useEffect, useMemo, useState } from 'react';
import type { StaffUserAnswer } from '../shared/src/client/staff';
import { staffApi } from './api';
import { ErrorMessage } from './components/ErrorMessage';
import { Shell } from './layout/Shell';
import { InvitationPage } from './links/InvitationPage';
import { SetupPage } from './links/SetupPage';
import { DecidePage } from './links/DecidePage';
import { LiveProvider } from './live/LiveData';
import { allowedPages } from './pages';
import { navigate, useLocation } from './router';
import { type Session, SessionContext, useSession } from './session/SessionContext';
import { permissionsOf } from './session/permissions';
import { SignInPage } from './signIn/SignInPage';
import { failureWords } from './words';

type Who = { kind: 'checking' } | { kind: 'signedOut'; error?: string } | { kind: 'signedIn'; user: StaffUserAnswer };

/** Where sign-in lands; a role without it lands on its first page. */
const HOME = '/console/on-site';

/** The console: one-time link pages, sign-in, then the pages of the signed-in user's role. */
export function App() {
  const { path, query } = useLocation();
  const [who, setWho] = useState<Who>({ kind: 'checking' });

  useEffect(() => {
    void staffApi.getSession().then((outcome) => {
      if (outcome.kind === 'ok') setWho({ kind: 'signedIn', user: outcome.value.user });
      else if (outcome.kind === 'refused' && outcome.status === 401) setWho({ kind: 'signedOut' });
      else if (outcome.kind !== 'notModified') setWho({ kind: 'signedOut', error: failureWords(outcome) });
    });
  }, []);

  const signedIn = useCallback((user: StaffUserAnswer) => {
    setWho({ kind: 'signedIn', user });
    navigate(HOME, true);
  }, []);
  const signedOut = useCallback(() => {
    setWho({ kind: 'signedOut' });
    navigate('/console', true);
  }, []);
  const session = useMemo<Session | null>(
    () => (who.kind === 'signedIn' ? { user: who.user, can: permissionsOf(who.user), signedOut } : null),
    [who, signedOut],
  );

  const code = query.get('code') ?? '';
  if (path === '/console/setup') return <SetupPage code={code} onSignedIn={signedIn} />;
  if (path === '/console/invitation') return <InvitationPage code={code} onSignedIn={signedIn} />;
  // A host's Approve or Deny link: no sign-in (docs/notifications.md).
  if (path === '/console/decide') return <DecidePage />;
  if (who.kind === 'checking') return <main className="card narrow" aria-busy="true" />;
  if (!session) {
    return (
      <>
        {who.kind === 'signedOut' && who.error ? <ErrorMessage text={who.error} /> : null}
        <SignInPage onSignedIn={signedIn} />
      </>
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <LiveProvider>
        <Shell path={path === '/console' ? HOME : path}>
          <SignedInPage path={path} />
        </Shell>
      </LiveProvider>
    </SessionContext.Provider>
  );
}

function SignedInPage({ path }: { path: string }) {
  const { can } = useSession();
  const allowed = allowedPages(can);
  const page = allowed.find((candidate) => candidate.path === path) ?? allowed[0];
  return page ? (
    page.render()
  ) : (
    <ErrorMessage text="Your role has no page in the console. Ask an owner to change it." />
  );
}
