import { type FormEvent, useEffect, useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import type { HostDecisionPreviewAnswer } from '../../shared/src/client/hosts';
import type { HostDecisionMessage } from '../../shared/src/messages/hostDecision';
import { hostsApi } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { DenyReasonField, denyReason } from '../components/DenyReasonField';
import { decisionWords } from './decisionWords';
import { UnusableLink } from './linkForm';

type Preview =
  | { kind: 'loading' }
  | { kind: 'failed'; message: HostDecisionMessage }
  | { kind: 'ready'; preview: HostDecisionPreviewAnswer };

/** Why a link does not work (or a decision did not go through), in words the host can act on. */
const refusalWords = (outcome: HttpOutcome<unknown>, otherwise: HostDecisionMessage): HostDecisionMessage => {
  if (outcome.kind !== 'refused') return otherwise;
  return outcome.status === 409 ? 'decided' : outcome.status === 404 ? 'unknown' : otherwise;
};

/**
 * /console/decide#<token>: a host's Approve or Deny link (docs/notifications.md). No sign-in; the page asks
 * to confirm before anything is decided, so a mail scanner that opens links decides nothing. The secret
 * stays in the fragment, which no request line (and so no log) carries. It speaks the host's language (the
 * preview says it), not the console's English: the host read the message in it.
 */
export function DecidePage() {
  const [token, setToken] = useState(() => window.location.hash.replace(/^#/, ''));
  const [state, setState] = useState<Preview>({ kind: 'loading' });
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<HostDecisionMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostDecisionMessage | null>(null);
  const words = decisionWords(state.kind === 'ready' ? state.preview.language : undefined);

  // Another link opened in this tab changes only the fragment: the page starts over for it.
  useEffect(() => {
    const follow = () => {
      setToken(window.location.hash.replace(/^#/, ''));
      setState({ kind: 'loading' });
      setDone(null);
      setError(null);
      setReason('');
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  useEffect(() => {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) {
      setState({ kind: 'failed', message: 'partial' });
      return;
    }
    void hostsApi.previewDecision(token).then((outcome) => {
      if (outcome.kind === 'ok') setState({ kind: 'ready', preview: outcome.value });
      else setState({ kind: 'failed', message: refusalWords(outcome, 'unchecked') });
    });
  }, [token]);

  // The page's `lang` and `dir` follow its words (Arabic right to left). Set again whenever the page's state
  // changes, since the console's frame around it sets its own English once, after this page's first effect.
  useEffect(() => {
    const root = document.documentElement;
    const before = { lang: root.lang, dir: root.dir };
    root.lang = words.tag;
    root.dir = words.dir;
    return () => {
      root.lang = before.lang;
      root.dir = before.dir;
    };
  }, [words, state]);

  if (state.kind === 'loading') return <main className="card narrow" aria-busy="true" />;
  if (state.kind === 'failed') return <UnusableLink title={words.say('title')} message={words.say(state.message)} />;
  const { preview } = state;
  const approve = preview.action === 'approve';
  const name = `${preview.visitor.firstName} ${preview.visitor.lastName}`.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = approve ? { token } : { token, ...denyReason(reason) };
    setBusy(true);
    setError(null);
    try {
      const outcome = await hostsApi.decide(body);
      if (outcome.kind !== 'ok') {
        setError(refusalWords(outcome, 'notSent'));
        return;
      }
      // Used up: the address bar no longer holds a secret worth anything, but it need not show it either.
      window.history.replaceState(null, '', window.location.pathname);
      setDone(approve ? 'approved' : 'denied');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="card narrow">
      <h1>{words.say(approve ? 'approveTitle' : 'denyTitle', { name })}</h1>
      <p>
        {words.say(preview.visitor.company ? 'arrivedFrom' : 'arrived', {
          name,
          company: preview.visitor.company ?? '',
          site: preview.siteName,
          time: words.siteTime(preview.arrivedAt, preview.timezone),
          host: preview.hostName,
        })}
      </p>
      {done ? (
        <p role="status">{words.say(done, { name })}</p>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          {approve ? null : (
            <DenyReasonField
              label={words.say('reason')}
              optional={words.say('optional')}
              value={reason}
              onChange={setReason}
            />
          )}
          <ErrorMessage text={error ? words.say(error) : null} />
          <div className="buttons">
            <button type="submit" className={approve ? 'go' : 'danger'} disabled={busy}>
              {words.say(approve ? 'approve' : 'deny')}
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
