import type { HttpOutcome } from '../shared/src/client/http';
import type { ConsoleMessage } from '../shared/src/messages/console';
import type { ConsoleWords } from './language/consoleWords';
import { ReadFailure } from './live/liveQueries';

export type Failure = Exclude<HttpOutcome<unknown>, { kind: 'ok' } | { kind: 'notModified' }>;

const byCode: Record<string, ConsoleMessage> = {
  UNAUTHENTICATED: 'failure.signedOut',
  FORBIDDEN: 'failure.forbidden',
  INSUFFICIENT_SCOPE: 'failure.forbidden',
  NOT_FOUND: 'failure.notFound',
  RATE_LIMITED: 'failure.rateLimited',
  CSRF_REJECTED: 'failure.csrf',
};

/** What went wrong, in words for the person at the screen. */
export function failureWords(words: ConsoleWords, outcome: Failure): string {
  switch (outcome.kind) {
    case 'unreachable':
      return words.t('failure.unreachable');
    case 'malformed':
      return words.t('failure.malformed');
    case 'refused': {
      const { problem, status } = outcome;
      // The server's own detail is its words (English): shown as it came where nothing plainer is known.
      if (problem?.code === 'INVALID_STATE' || status === 409) return problem?.detail ?? words.t('failure.conflict');
      const known = problem && problem.code !== 'VALIDATION_FAILED' ? byCode[problem.code] : undefined;
      if (known) return words.t(known);
      if (problem?.detail) return problem.detail;
      return status >= 500 ? words.t('failure.server') : words.t('failure.other');
    }
  }
}

/** A failed read (a list, the live views) in words for the screen. */
export function readFailureWords(words: ConsoleWords, error: Error): string {
  if (!(error instanceof ReadFailure)) return error.message;
  // These reads never ask conditionally: a 304 there would be the server's mistake.
  return error.outcome.kind === 'notModified' ? words.t('failure.malformed') : failureWords(words, error.outcome);
}
