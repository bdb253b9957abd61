import { useEffect, useMemo, useState } from 'react';
import { observeQuery } from '../../src/data/observe';
import { readPeoplePulledAt } from '../../src/data/settings';
import type { Kiosk } from '../../src/kiosk';
import { roughDuration } from '../../src/roughDuration';
import { useObservable } from '../hooks/useObservable';
import { shortTime } from '../words';
import './rollCallAge.css';

/**
 * Older than this, the list is flagged. The kiosk pulls every 30 s while the server answers, so a few
 * minutes without one means the server has been away (or the sync is stuck), not a slow moment.
 */
export const STALE_AFTER_MS = 3 * 60_000;
/** How often the age is looked at again while the screen shows (it grows with no event to tell it). */
const TICK_MS = 15_000;

const agoText = (ms: number) => roughDuration(ms, { hoursFrom: 90, daysFrom: 36 });

/** What the Roll call says about how current it is, in words: one sentence when fresh, a warning when not. */
export function rollCallAgeWords(pulledAt: number | undefined, now: number): { text: string; stale: boolean } {
  if (pulledAt === undefined)
    return { text: 'Not yet synced with the server: showing only check-ins made on this kiosk.', stale: true };
  const asOf = `Up to date as of ${shortTime(new Date(pulledAt).toISOString(), new Date(now))}.`;
  const age = now - pulledAt;
  // abs(): a device clock set back must not make an old list look fresh.
  if (Math.abs(age) <= STALE_AFTER_MS) return { text: asOf, stale: false };
  const ago = age > 0 ? ` That was ${agoText(age)} ago.` : '';
  return {
    text: `${asOf}${ago} It has not been updated from the server since, so anyone who checked in or out elsewhere since then may be missing or still listed.`,
    stale: true,
  };
}

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * How old the Roll call is. In an evacuation a kiosk whose server has been away for hours must not look as
 * current as a fresh one: the time of the last pull of the site's people (kept in the kiosk's database, so
 * a reload still knows it) is shown, and flagged when it is old or has never happened.
 */
export function RollCallAge({ kiosk }: { kiosk: Kiosk }) {
  // Wrapped in an object: "never pulled" (undefined) must not read as "not loaded yet".
  const source = useMemo(
    () => observeQuery(async () => ({ at: await readPeoplePulledAt(kiosk.db, kiosk.siteId) })),
    [kiosk],
  );
  const pulled = useObservable(source);
  const now = useNow(TICK_MS);
  if (!pulled) return null;
  const { text, stale } = rollCallAgeWords(pulled.at, now);
  return <p className={`roll-call-age${stale ? ' is-stale' : ''}`}>{text}</p>;
}
