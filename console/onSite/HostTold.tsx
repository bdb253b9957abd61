import { useWords } from '../language/ConsoleLanguage';
import { siteLookup } from '../live/siteLookup';
import { useLive } from '../live/LiveData';
import { hostToldWords } from './hostTold';
import type { OnSiteRow } from './rows';

/** Under a visit's host: whether they were told of it ("Host told 09:41 by email"), or why not. */
export function HostTold({ row }: { row: OnSiteRow }) {
  const live = useLive();
  const words = useWords();
  if (row.kind !== 'person') return null;
  const told = hostToldWords(
    words,
    { hostId: row.hostId, hostName: row.host, status: row.status },
    live.hostNotifications.get(row.checkinId),
    siteLookup(words, live.sites ?? []).zone(row.siteId),
  );
  return told ? <span className="host-told muted">{told}</span> : null;
}
