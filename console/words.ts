import type { HttpOutcome } from '../shared/src/client/http';

type Failure = Exclude<HttpOutcome<unknown>, { kind: 'ok' } | { kind: 'notModified' }>;

const byCode: Record<string, string> = {
  UNAUTHENTICATED: 'You are signed out. Sign in again.',
  FORBIDDEN: 'Your role does not allow this.',
  INSUFFICIENT_SCOPE: 'Your role does not allow this.',
  NOT_FOUND: 'That no longer exists, or you cannot see it.',
  RATE_LIMITED: 'Too many tries. Wait a few minutes, then try again.',
  CSRF_REJECTED: 'The request came from another page. Reload the console and try again.',
};

/** What went wrong, in words for the person at the screen. */
export function failureWords(outcome: Failure): string {
  switch (outcome.kind) {
    case 'unreachable':
      return 'The server cannot be reached. Check the connection and try again.';
    case 'malformed':
      return 'The server answered in a way this console does not understand. Reload the page.';
    case 'refused': {
      const { problem, status } = outcome;
      if (problem?.code === 'INVALID_STATE' || status === 409)
        return problem?.detail ?? 'Someone else changed this meanwhile.';
      if (problem && problem.code !== 'VALIDATION_FAILED' && byCode[problem.code]) return byCode[problem.code] ?? '';
      if (problem?.detail) return problem.detail;
      return status >= 500
        ? 'The server had a problem. Try again in a moment.'
        : 'That did not work. Check what you entered.';
    }
  }
}
