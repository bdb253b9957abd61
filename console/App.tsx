import { QueryClientProvider } from '@tanstack/react-query';
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
import { Route, Routes, useLocation, useNavigate, useSearchParams } from 'react-router';
import { type Session, SessionContext, useSession } from './session/SessionContext';
import { permissionsOf } from './session/permissions';
import { SignInPage } from './signIn/SignInPage';
import { SiteFormPage } from './sites/SiteFormPage';
import { useWords } from './language/ConsoleLanguage';
import { failureWords } from './words';
import { queryClient } from './queryClient';

type Who = { kind: 'checking' } | { kind: 'signedOut'; error?: string } | { kind: 'signedIn'; user: StaffUserAnswer };

/** Where sign-in lands; a role without it lands on its first page. */
const HOME = '/console/on-site';

/** The console: one-time link pages, sign-in, then the pages of the signed-in user's role. */
export function App() {
  const path = useLocation().pathname.replace(/\/+$/, '') || '/';
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const words = useWords();
  const [who, setWho] = useState<Who>({ kind: 'checking' });

  useEffect(() => {
    void staffApi.getSession().then((outcome) => {
      if (outcome.kind === 'ok') setWho({ kind: 'signedIn', user: outcome.value.user });
      else if (outcome.kind === 'refused' && outcome.status === 401) setWho({ kind: 'signedOut' });
      else if (outcome.kind !== 'notModified') setWho({ kind: 'signedOut', error: failureWords(words, outcome) });
    });
  }, [words]);

  const signedIn = useCallback(
    (user: StaffUserAnswer) => {
      setWho({ kind: 'signedIn', user });
      void navigate(HOME, { replace: true });
    },
    [navigate],
  );
  const signedOut = useCallback(() => {
    // What one user's session read is not the next one's.
    queryClient.clear();
    setWho({ kind: 'signedOut' });
    void navigate('/console', { replace: true });
  }, [navigate]);
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
    <QueryClientProvider client={queryClient}>
      <SessionContext.Provider value={session}>
        <LiveProvider>
          <Shell path={path === '/console' ? HOME : path}>
            <SignedInPage />
          </Shell>
        </LiveProvider>
      </SessionContext.Provider>
    </QueryClientProvider>
  );
}

/** The page of the path among those the user's role allows; any other path shows their first page. */
function SignedInPage() {
  const { can } = useSession();
  const words = useWords();
  const allowed = allowedPages(can);
  const home = allowed[0];
  if (!home) return <ErrorMessage text={words.t('failure.noPage')} />;
  return (
    <Routes>
      {allowed.map((page) => (
        <Route key={page.path} path={page.path} element={page.render()} />
      ))}
      {can.sites ? <Route path="/console/sites/:siteId/form" element={<SiteFormPage />} /> : null}
      <Route path="*" element={home.render()} />
    </Routes>
  );
}
