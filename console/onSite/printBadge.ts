import { fetchBadgePdf } from '../../shared/src/client/badge';
import { printPdfInFrame } from '../../shared/src/client/printFrame';
import { sameOriginFetch } from '../api';

/**
 * Prints a visitor's badge (a reprint, or the first print of a visit approved after it waited): the PDF from
 * the server, through the browser's print dialog. Answers what went wrong in words, or null.
 */
export async function printBadge(visit: { siteId: number; checkinId: number }): Promise<string | null> {
  const answer = await fetchBadgePdf({ baseUrl: window.location.origin, fetch: sameOriginFetch }, visit);
  if (answer.kind === 'unreachable') return 'The server could not be reached: the badge was not printed. Try again.';
  if (answer.kind === 'refused')
    return answer.problem?.code === 'BADGES_OFF'
      ? 'Badges are off at this site. A manager can turn them on under Sites.'
      : (answer.problem?.detail ?? `The server gave no badge (HTTP ${answer.status}).`);
  const outcome = await printPdfInFrame(window, answer.pdf);
  return outcome.printed ? null : `The badge could not be printed: ${outcome.reason}`;
}
