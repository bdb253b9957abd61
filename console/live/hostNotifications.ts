import type { PersonCheckinAnswer } from '../../shared/src/client';
import type { NotificationAnswer } from '../../shared/src/client/hosts';
import { hostsApi } from '../api';

/** Ids per request: the API takes at most 100 check-ins a time. */
const CHUNK = 100;

/**
 * What the hosts of these visits were told, by check-in id (only visits with a host ask anything). A failed
 * read leaves those visits out: their lines then say nothing rather than something untrue.
 */
export async function hostNotificationsOf(
  people: readonly PersonCheckinAnswer[],
): Promise<Map<number, NotificationAnswer[]>> {
  const ids = people.filter((checkin) => checkin.hostId !== null).map((checkin) => checkin.checkinId);
  const byVisit = new Map<number, NotificationAnswer[]>();
  const chunks: number[][] = [];
  for (let start = 0; start < ids.length; start += CHUNK) chunks.push(ids.slice(start, start + CHUNK));
  const outcomes = await Promise.all(chunks.map((chunk) => hostsApi.notificationsOf(chunk)));
  outcomes.forEach((outcome, index) => {
    if (outcome.kind !== 'ok') return;
    for (const id of chunks[index] ?? []) byVisit.set(id, []);
    for (const item of outcome.value.data) byVisit.get(item.checkinId)?.push(item);
  });
  return byVisit;
}
