import { useCallback, useState } from 'react';
import type { HttpOutcome } from '../../shared/src/client/http';
import { useWords } from '../language/ConsoleLanguage';
import { failureWords } from '../words';

/**
 * One write from a form: busy while it runs; a 422's errors placed next to the form's own fields (by the
 * first segment of their path), the rest in plain words above the buttons. Resolves to the value, or null.
 */
export function useWrite(fields: readonly string[]) {
  const words = useWords();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const run = useCallback(
    async <T>(request: () => Promise<HttpOutcome<T>>): Promise<T | null> => {
      setBusy(true);
      setError(null);
      setFieldErrors({});
      try {
        const outcome = await request();
        if (outcome.kind === 'ok') return outcome.value;
        if (outcome.kind === 'notModified') return null;
        const placed: Record<string, string> = {};
        const rest: string[] = [];
        if (outcome.kind === 'refused' && outcome.status === 422) {
          for (const item of outcome.problem?.errors ?? []) {
            const field = item.path.split('.')[0] ?? '';
            if (fields.includes(field) && !placed[field]) placed[field] = item.message;
            else rest.push(item.path === '' ? item.message : `${item.path}: ${item.message}`);
          }
        }
        setFieldErrors(placed);
        const someoneHere = Object.keys(placed).length > 0;
        setError(
          someoneHere && rest.length === 0
            ? words.t('failure.checkMarked')
            : rest.length > 0
              ? rest.join(' ')
              : failureWords(words, outcome),
        );
        return null;
      } finally {
        setBusy(false);
      }
    },
    [fields, words],
  );
  const clear = useCallback((field: string) => setFieldErrors(({ [field]: _gone, ...others }) => others), []);
  return { busy, error, setError, fieldErrors, clear, run };
}
