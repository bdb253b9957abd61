import { useCallback, useEffect, useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { useSession } from '../session/SessionContext';
import { failureWords } from '../words';

/**
 * What a page lists, read once and again on `reload()` (and every `everyMs` while the tab is shown): the
 * last good value stays on screen when a later read fails, with the failure in words beside it.
 */
export function useLoaded<T>(read: () => Promise<HttpOutcome<T>>, everyMs?: number) {
  const { signedOut } = useSession();
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    const outcome = await read();
    if (outcome.kind === 'ok') {
      setValue(outcome.value);
      setError(null);
    } else if (outcome.kind === 'refused' && outcome.status === 401) signedOut();
    else if (outcome.kind !== 'notModified') setError(failureWords(outcome));
  }, [read, signedOut]);

  useEffect(() => {
    void reload();
    if (everyMs === undefined) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void reload();
    }, everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs]);

  return { value, error, reload };
}
