import type { InvitationAnswer } from '../../shared/src/client/invitations';
import { siteLocalInstant } from '../../shared/src/domain/siteClock';
import type { Site } from '../../shared/src/schemas/sites';

const HOUR = 3_600_000;

/** `YYYY-MM-DD` of an instant on a clock (`en-CA` writes dates that way). */
export const dayOn = (at: Date, timeZone: string): string => at.toLocaleDateString('en-CA', { timeZone });

/** Today on the browser's clock, the page's first day. */
export const today = (): string => dayOn(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');

/**
 * The instants to ask for so that `day` is whole at every site whatever its zone (UTC+14 to UTC−12); each
 * invitation is then kept when its site's own clock reads `day` at its expected time (siteDayOf).
 */
export function dayWindow(day: string): { from: string; to: string } {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  return { from: new Date(midnight - 14 * HOUR).toISOString(), to: new Date(midnight + 36 * HOUR).toISOString() };
}

/** The chosen day's invitations by site, each site's earliest expected first; sites in name order. */
export function bySite(
  invitations: readonly InvitationAnswer[],
  sites: readonly Site[],
  day: string,
): Array<{ site: Site; invitations: InvitationAnswer[] }> {
  return [...sites]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((site) => ({
      site,
      invitations: invitations
        .filter((item) => item.siteId === site.siteId && dayOn(new Date(item.expectedAt), site.timezone) === day)
        .sort((a, b) => Date.parse(a.expectedAt) - Date.parse(b.expectedAt)),
    }))
    .filter((group) => group.invitations.length > 0);
}

/** The instant a site's clock reads `day` at `time` (HH:MM), or undefined for no such time. */
export const atSiteClock = (day: string, time: string, site: Site): Date | undefined =>
  siteLocalInstant(`${day} ${time}`, site.timezone);
