import { useEffect, useRef } from 'react';

/** About a minute without a tap or a key: the visitor has walked away, and the next must not find their screen. */
export const IDLE_MS = 60_000;

// Shorter only: a delay from the address can make the kiosk forget sooner, never keep a screen up longer.
const SHORTEST_IDLE_MS = 1_000;

/** `?idle=<ms>` (for tests), between a second and IDLE_MS; anything else is not taken. */
export function idleDelayFromQuery(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('idle');
  if (raw === null || !/^\d+$/.test(raw)) return undefined;
  const ms = Number(raw);
  return ms >= SHORTEST_IDLE_MS && ms <= IDLE_MS ? ms : undefined;
}

// Read as the renderer loads: once the app has applied the address's settings it drops the query
// (deviceSettings.forgetQuery), before any screen that would read it is shown.
const fromAddress = typeof window === 'undefined' ? undefined : idleDelayFromQuery(window.location.search);

/** The idle delay this page uses: the address's (tests), else IDLE_MS. */
export const idleDelay = (): number => fromAddress ?? IDLE_MS;

// Input that shows someone is there. Capture phase, so a handler that stops an event cannot hide it.
const activity = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Calls `onIdle` once `delayMs` have passed without a tap, a key or a scroll, then again only after the
 * next input has been followed by another quiet `delayMs`.
 */
export function useIdleReset(onIdle: () => void, delayMs: number): void {
  // Through a ref: the caller's callback changes on every render, and that must not restart the wait.
  const latest = useRef(onIdle);
  useEffect(() => {
    latest.current = onIdle;
  });
  useEffect(() => {
    let timer: number | undefined;
    const restart = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => latest.current(), delayMs);
    };
    const options = { capture: true, passive: true };
    for (const type of activity) document.addEventListener(type, restart, options);
    restart();
    return () => {
      window.clearTimeout(timer);
      for (const type of activity) document.removeEventListener(type, restart, options);
    };
  }, [delayMs]);
}
