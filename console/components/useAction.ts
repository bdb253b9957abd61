import { useCallback, useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { useWords } from '../language/ConsoleLanguage';
import { failureWords } from '../words';

/** One write from a button: busy while it runs, its failure in plain words, `true` when it worked. */
export function useAction() {
  const words = useWords();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async <T>(request: () => Promise<HttpOutcome<T>>): Promise<T | null> => {
      setBusy(true);
      setError(null);
      try {
        const outcome = await request();
        if (outcome.kind === 'ok') return outcome.value;
        if (outcome.kind !== 'notModified') setError(failureWords(words, outcome));
        return null;
      } finally {
        setBusy(false);
      }
    },
    [words],
  );
  return { busy, error, setError, run };
}
