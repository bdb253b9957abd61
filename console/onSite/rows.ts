import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';
import type { ConsoleMessage } from '../../shared/src/messages/console';
import { byInstant } from '../components/time';
import type { ConsoleWords } from '../language/consoleWords';

/** One line of On site now: a person or a vehicle, as the table shows it. */
export interface OnSiteRow {
  key: string;
  kind: 'person' | 'vehicle';
  siteId: number;
  checkinId: number;
  name: string;
  company: string | null;
  host: string | null;
  /** The visit's host and status, to say whether the host was told (people only). */
  hostId: number | null;
  status: string;
  since: string;
}

export const personName = (checkin: PersonCheckinAnswer) =>
  `${checkin.person.firstName} ${checkin.person.lastName}`.trim();

/** People and vehicles of the chosen site (or all), longest on site first (by the instant, whatever the site's zone). */
export function onSiteRows(
  people: readonly PersonCheckinAnswer[],
  vehicles: readonly VehicleCheckinAnswer[],
  siteId: number | null,
): OnSiteRow[] {
  const rows: OnSiteRow[] = [
    ...people.map((checkin) => ({
      key: `p${checkin.checkinId}`,
      kind: 'person' as const,
      siteId: checkin.siteId,
      checkinId: checkin.checkinId,
      name: personName(checkin),
      company: checkin.person.company,
      host: checkin.hostName,
      hostId: checkin.hostId,
      status: checkin.status,
      since: checkin.entry.at,
    })),
    ...vehicles.map((checkin) => ({
      key: `v${checkin.checkinId}`,
      kind: 'vehicle' as const,
      siteId: checkin.siteId,
      checkinId: checkin.checkinId,
      name: checkin.licensePlate,
      company: checkin.driverName,
      host: null,
      hostId: null,
      status: checkin.status,
      since: checkin.entry.at,
    })),
  ];
  return rows.filter((row) => siteId === null || row.siteId === siteId).sort((a, b) => byInstant(a.since, b.since));
}

const statusWords: Record<string, ConsoleMessage> = {
  IN: 'visitStatus.IN',
  ON_BREAK: 'visitStatus.ON_BREAK',
  PENDING: 'visitStatus.PENDING',
  STOP: 'visitStatus.STOP',
  OUT: 'visitStatus.OUT',
};
/** A visit's status in words; one a newer server added shows as it came. */
export function statusWord(words: ConsoleWords, status: string): string {
  const key = statusWords[status];
  return key ? words.t(key) : status;
}

/** Whom On site now counts (docs/running-a-site.md): people in, on a break or waiting, as the kiosk's Roll call. */
const ON_SITE = new Set(['IN', 'ON_BREAK', 'PENDING']);

/** "3 people on site (1 waiting) · 2 vehicles": people and vehicles apart, those waiting for approval named. */
export function onSiteCount(words: ConsoleWords, rows: readonly OnSiteRow[]): string {
  const people = rows.filter((row) => row.kind === 'person' && ON_SITE.has(row.status));
  const waiting = people.filter((row) => row.status === 'PENDING').length;
  const vehicles = rows.filter((row) => row.kind === 'vehicle').length;
  const parts = [
    words.t('onSite.count.people', { count: people.length, waiting }),
    ...(vehicles > 0 ? [words.t('onSite.count.vehicles', { count: vehicles })] : []),
  ];
  return parts.join(' · ');
}
