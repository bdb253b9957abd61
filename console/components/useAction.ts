import { useCallback, useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { failureWords } from '../words';

/** One write from a button: busy while it runs, its failure in plain words, `true` when it worked. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async <T,>(request: () => Promise<HttpOutcome<T>>): Promise<T | null> => {
    setBusy(true);
    setError(null);
    try {
      const outcome = await request();
      if (outcome.kind === 'ok') return outcome.value;
      if (outcome.kind !== 'notModified') setError(failureWords(outcome));
      return null;
    } finally {
      setBusy(false);
    }
  }, []);
  /** As `run`, for a write whose answer is empty (204): `true` when it worked. */
  const done = useCallback(
    async (request: () => Promise<HttpOutcome<unknown>>): Promise<boolean> => {
      let worked = false;
      await run(async () => {
        const outcome = await request();
        worked = outcome.kind === 'ok';
        return outcome;
      });
      return worked;
    },
    [run],
  );
  return { busy, error, setError, run, done };
}
