import { isDatabaseUnavailable } from '../db/unavailable';
import { ProblemError, problem } from './problem';

/** Any thrown value as the problem the client sees: expected problems as they are, the rest hidden. */
export function toProblem(error: unknown): { problem: ProblemError; unexpected: boolean } {
  if (error instanceof ProblemError) return { problem: error, unexpected: false };
  if (isDatabaseUnavailable(error)) {
    return {
      problem: problem('UNAVAILABLE', 'The database is unavailable; retry shortly.', {
        headers: { 'Retry-After': '1' },
      }),
      unexpected: false,
    };
  }
  return { problem: problem('INTERNAL', 'Something went wrong on our side.'), unexpected: true };
}
