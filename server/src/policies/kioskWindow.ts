import type { Principal } from '../auth/principal';
import { type Sql, sql } from '../db/sql';

/**
 * What a kiosk may see of its site's visits (docs/api.md, Kiosk feeds): those on site now, and those whose
 * last event is at most a day old. Never the site's history: a kiosk's token sits on a public device.
 */
export const KIOSK_HISTORY_MS = 24 * 60 * 60 * 1000;

/** The statuses of a visit that is on site now, by kind (a STOP or OUT visit only for a day). */
export const ON_SITE = { person: ['IN', 'ON_BREAK', 'PENDING'], vehicle: ['IN', 'PENDING'] } as const;

/** A kiosk's token (a `KIOSK`-channel token): what it sees is held to its window. */
export const isKioskPrincipal = (principal: Principal): boolean =>
  principal.source === 'KIOSK' && principal.tokenId !== null;

/** The oldest last event a kiosk may see of a visit that is no longer on site. */
export const kioskSince = (now: Date): Date => new Date(now.getTime() - KIOSK_HISTORY_MS);

/** The window for a kiosk principal, undefined for anyone else. */
export const kioskWindowOf = (principal: Principal, now: Date): Date | undefined =>
  isKioskPrincipal(principal) ? kioskSince(now) : undefined;

/** Whether a kiosk may see a visit of `kind` in `status` whose last event was at `lastEventAt`. */
export function kioskMaySee(kind: keyof typeof ON_SITE, status: string, lastEventAt: Date, since: Date): boolean {
  return (ON_SITE[kind] as readonly string[]).includes(status) || lastEventAt.getTime() >= since.getTime();
}

/** The same in SQL, for visits aliased `c`. */
export const kioskVisibleSql = (kind: keyof typeof ON_SITE, since: Date): Sql =>
  sql`(c.status = ANY(${[...ON_SITE[kind]]}::text[]) OR c.last_event_at >= ${since})`;
