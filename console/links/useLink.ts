import { useEffect, useState } from 'react';
import type { SessionLinkAnswer } from '../../shared/src/client/staff';
import { staffApi } from '../api';
import { failureWords } from '../words';

export type LinkState =
  { kind: 'loading' } | { kind: 'ready'; link: SessionLinkAnswer } | { kind: 'failed'; message: string };

/** What a one-time link is for (setup, invitation or reset), or why it cannot be used. */
export function useLink(code: string): LinkState {
  const [state, setState] = useState<LinkState>({ kind: 'loading' });
  useEffect(() => {
    if (code === '') {
      setState({ kind: 'failed', message: 'This link is incomplete. Open the whole link you were sent.' });
      return;
    }
    let current = true;
    void staffApi.getLink(code).then((outcome) => {
      if (!current) return;
      if (outcome.kind === 'ok') setState({ kind: 'ready', link: outcome.value });
      else if (outcome.kind === 'refused' && outcome.status === 404) {
        setState({ kind: 'failed', message: 'This link has expired or was already used. Ask for a new one.' });
      } else if (outcome.kind !== 'notModified') setState({ kind: 'failed', message: failureWords(outcome) });
    });
    return () => {
      current = false;
    };
  }, [code]);
  return state;
}

export const passwordHint =
  'At least 12 characters, hard to guess: not a common password, a keyboard pattern, your name or your email. A long phrase of unusual words is easiest to remember.';

/**
 * The server's simple rules for a password (docs/api.md, Passwords), checked here first so the common mistake
 * reads at once; how easy it is to guess only the server judges, and its reason is shown at the field.
 */
export function passwordProblem(password: string): string | undefined {
  if (password.trim() === '') return 'A password cannot be only spaces.';
  if (password.length < 12) return 'Use at least 12 characters.';
  if (password.length > 256) return 'Use at most 256 characters.';
  return undefined;
}
