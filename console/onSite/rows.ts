import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';

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

/** People and vehicles of the chosen site (or all), longest on site first. */
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
  return rows.filter((row) => siteId === null || row.siteId === siteId).sort((a, b) => a.since.localeCompare(b.since));
}

const statusWords: Record<string, string> = {
  IN: 'In',
  ON_BREAK: 'On break',
  PENDING: 'Waiting for approval',
  STOP: 'Stopped',
  OUT: 'Left',
};
export const statusWord = (status: string) => statusWords[status] ?? status;
