import { useCallback, useState } from 'react';

function read<T>(key: string, initial: T): T {
  try {
    const text = window.sessionStorage.getItem(key);
    return text === null ? initial : { ...initial, ...(JSON.parse(text) as T) };
  } catch {
    return initial; // Storage refused (a sandboxed frame) or unreadable: start afresh.
  }
}

/** React state of a plain object that outlives a reload of the page (sessionStorage under `key`). */
export function useSessionState<T extends object>(key: string, initial: T): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => read(key, initial));
  const set = useCallback(
    (next: T) => {
      setValue(next);
      try {
        window.sessionStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Kept in memory only.
      }
    },
    [key],
  );
  return [value, set];
}
