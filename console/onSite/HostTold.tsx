import { siteLookup } from '../live/siteLookup';
import { useLive } from '../live/LiveData';
import { hostToldWords } from './hostTold';
import type { OnSiteRow } from './rows';

/** Under a visit's host: whether they were told of it ("Host told 09:41 by email"), or why not. */
export function HostTold({ row }: { row: OnSiteRow }) {
  const live = useLive();
  if (row.kind !== 'person') return null;
  const words = hostToldWords(
    { hostId: row.hostId, hostName: row.host, status: row.status },
    live.hostNotifications.get(row.checkinId),
    siteLookup(live.sites ?? []).zone(row.siteId),
  );
  return words ? <span className="host-told muted">{words}</span> : null;
}
