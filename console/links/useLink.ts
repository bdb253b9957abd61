import { useEffect, useState } from 'react';
import type { SessionLinkAnswer } from '../../shared/src/client/staff';
import { staffApi } from '../api';
import type { ConsoleWords } from '../language/consoleWords';
import { useWords } from '../language/ConsoleLanguage';
import { failureWords } from '../words';

export type LinkState =
  { kind: 'loading' } | { kind: 'ready'; link: SessionLinkAnswer } | { kind: 'failed'; message: string };

/** What a one-time link is for (setup, invitation or reset), or why it cannot be used. */
export function useLink(code: string): LinkState {
  const words = useWords();
  const [state, setState] = useState<LinkState>({ kind: 'loading' });
  useEffect(() => {
    if (code === '') {
      setState({ kind: 'failed', message: words.t('link.incomplete') });
      return;
    }
    let current = true;
    void staffApi.getLink(code).then((outcome) => {
      if (!current) return;
      if (outcome.kind === 'ok') setState({ kind: 'ready', link: outcome.value });
      else if (outcome.kind === 'refused' && outcome.status === 404) {
        setState({ kind: 'failed', message: words.t('link.used') });
      } else if (outcome.kind !== 'notModified') setState({ kind: 'failed', message: failureWords(words, outcome) });
    });
    return () => {
      current = false;
    };
  }, [code, words]);
  return state;
}

/**
 * The server's simple rules for a password (docs/api.md, Passwords), checked here first so the common mistake
 * reads at once; how easy it is to guess only the server judges, and its reason is shown at the field.
 */
export function passwordProblem(words: ConsoleWords, password: string): string | undefined {
  if (password.trim() === '') return words.t('password.spaces');
  if (password.length < 12) return words.t('password.short');
  if (password.length > 256) return words.t('password.long');
  return undefined;
}
