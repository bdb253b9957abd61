import { useContext, useEffect, useMemo } from 'react';
import type { KioskDatabase } from '../../src/data/database';
import { observeQuery } from '../../src/data/observe';
import { outboxCounts } from '../../src/data/queries';
import { useObservable } from '../hooks/useObservable';
import { AppUpdateContext } from './AppUpdateContext';

/**
 * How many idle delays without input before a waiting update reloads the page: ten minutes by default, as
 * long as an unlocked Roll call may be read untouched in an evacuation (KioskShell).
 */
export const UPDATE_QUIET_FACTOR = 10;

// Input that shows someone is there (as useIdleReset counts it). Capture phase: nothing can hide it.
const activity = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Lets a waiting update in (the page reloads into the new build) once nothing is queued for the server and
 * nobody has touched the kiosk for `quietMs`: a sync is never cut off, nor a visitor, a guard or a Roll call.
 * Actions in Needs attention do not hold it: they wait for a person, not the network, and stay on the device.
 */
export function useUpdateWhenQuiet(device: KioskDatabase, quietMs: number): void {
  const update = useContext(AppUpdateContext);
  const waiting = useObservable(update?.waiting) ?? false;
  const countsSource = useMemo(() => observeQuery(() => outboxCounts(device)), [device]);
  const counts = useObservable(countsSource);
  const queued = counts ? counts.pending - counts.attention : undefined;
  useEffect(() => {
    if (!update || !waiting || queued !== 0) return undefined;
    let timer = window.setTimeout(() => update.apply(), quietMs);
    const restart = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => update.apply(), quietMs);
    };
    for (const kind of activity) window.addEventListener(kind, restart, { capture: true, passive: true });
    return () => {
      window.clearTimeout(timer);
      for (const kind of activity) window.removeEventListener(kind, restart, { capture: true });
    };
  }, [update, waiting, queued, quietMs]);
}
