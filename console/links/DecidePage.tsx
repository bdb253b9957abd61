import { type FormEvent, useEffect, useState } from 'react';
import type { HostDecisionPreviewAnswer } from '../../shared/src/client/hosts';
import { hostsApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../components/Field';
import { useAction } from '../components/useAction';
import { useWords } from '../language/ConsoleLanguage';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import { UnusableLink } from './linkForm';

type Preview =
  { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; preview: HostDecisionPreviewAnswer };

/** Why a link does not work, in words the host can act on. */
const refusalWords = (status: number): ConsoleMessage =>
  status === 409 ? 'decide.decided' : status === 404 ? 'decide.unknown' : 'decide.unchecked';

/** "Tue 24 Nov, 09:41 CET", on the site's clock. */
const siteTime = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleString(undefined, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });

/**
 * /console/decide#<token>: a host's Approve or Deny link (docs/notifications.md). No sign-in; the page asks
 * to confirm before anything is decided, so a mail scanner that opens links decides nothing. The secret
 * stays in the fragment, which no request line (and so no log) carries.
 */
export function DecidePage() {
  const words = useWords();
  const [token, setToken] = useState(() => window.location.hash.replace(/^#/, ''));
  const [state, setState] = useState<Preview>({ kind: 'loading' });
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();

  // Another link opened in this tab changes only the fragment: the page starts over for it.
  useEffect(() => {
    const follow = () => {
      setToken(window.location.hash.replace(/^#/, ''));
      setState({ kind: 'loading' });
      setDone(null);
      setReason('');
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  useEffect(() => {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) {
      setState({ kind: 'failed', message: words.t('decide.partial') });
      return;
    }
    void hostsApi.previewDecision(token).then((outcome) => {
      if (outcome.kind === 'ok') setState({ kind: 'ready', preview: outcome.value });
      else
        setState({ kind: 'failed', message: words.t(refusalWords(outcome.kind === 'refused' ? outcome.status : 0)) });
    });
  }, [token, words]);

  if (state.kind === 'loading') return <main className="card narrow" aria-busy="true" />;
  if (state.kind === 'failed') return <UnusableLink title={words.t('decide.title')} message={state.message} />;
  const { preview } = state;
  const approve = preview.action === 'approve';
  const name = `${preview.visitor.firstName} ${preview.visitor.lastName}`.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = approve || reason.trim() === '' ? { token } : { token, reason: reason.trim() };
    const decided = await action.run(() => hostsApi.decide(body));
    if (decided) {
      // Used up: the address bar no longer holds a secret worth anything, but it need not show it either.
      window.history.replaceState(null, '', window.location.pathname);
      setDone(approve ? words.t('decide.approved', { name }) : words.t('decide.denied', { name }));
    }
  };

  return (
    <main className="card narrow">
      <h1>{approve ? words.t('decide.approveTitle', { name }) : words.t('decide.denyTitle', { name })}</h1>
      <p>
        {words.t(preview.visitor.company ? 'decide.arrivedFrom' : 'decide.arrived', {
          name,
          company: preview.visitor.company ?? '',
          site: preview.siteName,
          time: siteTime(preview.arrivedAt, preview.timezone),
          host: preview.hostName,
        })}
      </p>
      {done ? (
        <p role="status">{done}</p>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          {approve ? null : (
            <Field
              label={words.t('approvals.deny.reason')}
              value={reason}
              onChange={setReason}
              maxLength={500}
              placeholder={words.t('common.optional')}
            />
          )}
          <ErrorMessage text={action.error} />
          <div className="buttons">
            <button type="submit" className={approve ? 'go' : 'danger'} disabled={action.busy}>
              {approve ? words.t('approvals.approve') : words.t('approvals.deny')}
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
