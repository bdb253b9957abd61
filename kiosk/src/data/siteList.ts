import type { createApiClient } from '../../../shared/src/client';
import type { HttpOutcome } from '../../../shared/src/client/http';
import type { Site } from '../../../shared/src/schemas/sites';

/** More pages than any account has sites (200 a page): a server that keeps answering a cursor is cut off. */
const MAX_PAGES = 100;

/**
 * Every site the token can view, following `nextCursor` page after page (200 a page): the setup screen's
 * list, which stopped at the first page before. The first answer that is not a page is the outcome.
 */
export async function listAllSites(
  api: Pick<ReturnType<typeof createApiClient>, 'listSites'>,
): Promise<HttpOutcome<{ data: Site[] }>> {
  const sites: Site[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const outcome = await api.listSites(cursor);
    if (outcome.kind !== 'ok') return outcome;
    sites.push(...outcome.value.data);
    if (!outcome.value.nextCursor) return { ...outcome, value: { data: sites } };
    cursor = outcome.value.nextCursor;
  }
  return { kind: 'malformed', status: 200, message: `The server listed more than ${MAX_PAGES} pages of sites.` };
}
