import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import type { VisitCheckin } from '../../../shared/src/schemas/visit';

/**
 * A check-in as its own phone sees it (docs/api.md, The visitor's phone): state, times and the name it was
 * made with. Never a stop or deny reason, an approver, contact details or the badge's secret.
 */
export const presentVisitCheckin = (checkin: PersonCheckin, siteName: string): VisitCheckin => ({
  checkinId: checkin.checkinId,
  status: checkin.status,
  firstName: checkin.person.firstName,
  lastName: checkin.person.lastName,
  hostName: checkin.hostName,
  siteName,
  entry: checkin.entry,
  exit: checkin.exit,
  breaks: checkin.breaks.map((item) => ({ startedAt: item.startedAt, endedAt: item.endedAt })),
});
