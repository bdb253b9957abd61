import type { PersonCheckinAnswer, VehicleCheckinAnswer } from '../../shared/src/client';
import { personName } from '../onSite/rows';

/** One listed visit, a person's or a vehicle's, as the table shows it. */
export interface HistoryRow {
  key: string;
  siteId: number;
  /** A person's name, or a vehicle's plate. */
  name: string;
  /** A person's company, or a vehicle's driver. */
  company: string | null;
  host: string | null;
  status: string;
  entryAt: string;
  exitAt: string | null;
}

export const personRow = (checkin: PersonCheckinAnswer): HistoryRow => ({
  key: `p${checkin.checkinId}`,
  siteId: checkin.siteId,
  name: personName(checkin),
  company: checkin.person.company,
  host: checkin.hostName,
  status: checkin.status,
  entryAt: checkin.entry.at,
  exitAt: checkin.exit?.at ?? null,
});

export const vehicleRow = (checkin: VehicleCheckinAnswer): HistoryRow => ({
  key: `v${checkin.checkinId}`,
  siteId: checkin.siteId,
  name: checkin.licensePlate,
  company: checkin.driverName,
  host: null,
  status: checkin.status,
  entryAt: checkin.entry.at,
  exitAt: checkin.exit?.at ?? null,
});
