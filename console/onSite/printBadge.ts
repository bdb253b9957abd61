import { fetchBadgePdf } from '../../shared/src/client/badge';
import { printPdfInFrame } from '../../shared/src/client/printFrame';
import { sameOriginFetch } from '../api';
import type { ConsoleWords } from '../language/consoleWords';

/**
 * Prints a visitor's badge (a reprint, or the first print of a visit approved after it waited): the PDF from
 * the server, through the browser's print dialog. Answers what went wrong in words, or null.
 */
export async function printBadge(
  words: ConsoleWords,
  visit: { siteId: number; checkinId: number },
): Promise<string | null> {
  const answer = await fetchBadgePdf({ baseUrl: window.location.origin, fetch: sameOriginFetch }, visit);
  if (answer.kind === 'unreachable') return words.t('badge.unreachable');
  if (answer.kind === 'refused')
    return answer.problem?.code === 'BADGES_OFF'
      ? words.t('badge.off')
      : (answer.problem?.detail ?? words.t('badge.noBadge', { status: String(answer.status) }));
  const outcome = await printPdfInFrame(window, answer.pdf);
  return outcome.printed ? null : words.t('badge.notPrinted', { reason: outcome.reason });
}
