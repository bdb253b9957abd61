import type { HttpOutcome } from '../../shared/src/client/http';
import { api, staffApi } from '../api';

/** 2,000 people or vehicles: more than the busiest site holds at once. */
const MAX_PAGES = 10;

/** Every page of a search (up to MAX_PAGES), as one outcome: the first failure, or all the rows. */
async function allPages<T>(
  search: (cursor?: string) => Promise<HttpOutcome<{ data: T[]; nextCursor: string | null }>>,
) {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const outcome = await search(cursor);
    if (outcome.kind !== 'ok') return outcome;
    rows.push(...outcome.value.data);
    if (outcome.value.nextCursor === null) break;
    cursor = outcome.value.nextCursor;
  }
  return { kind: 'ok' as const, value: { data: rows } };
}

/**
 * Everything the live views show, read afresh: at start, on the stream's `reset`, and on the fallback
 * poll while the stream is down (docs/event-stream-clients.md).
 */
export const readEverything = (alerts: boolean) =>
  Promise.all([
    api.listSites(),
    allPages((cursor) => api.searchPeople({ status: ['IN', 'ON_BREAK', 'PENDING'], limit: 200, cursor })),
    allPages((cursor) => api.searchVehicles({ status: ['IN', 'PENDING'], limit: 200, cursor })),
    alerts ? staffApi.listAlerts() : Promise.resolve(null),
  ]);
