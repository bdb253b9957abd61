import type { z } from 'zod';
import type { HttpOutcome } from '../../../shared/src/client/http';
import type { ActionError } from '../data/types';

/** What to do with an action after one attempt. */
export type Decision<T> =
  | { type: 'ack'; value: T }
  | { type: 'retry'; error: ActionError; retryAfterMs: number | undefined }
  /** Refused for good: shown in Needs attention. `current` is the resource the server sent along (409). */
  | { type: 'attention'; error: ActionError; current: T | undefined };

/** The statuses that say "not now" rather than "no" (CONTRACT §11). */
function isTransient(status: number, code: string | undefined): boolean {
  return status === 408 || status === 429 || status >= 500 || (status === 409 && code === 'IDEMPOTENCY_KEY_IN_USE');
}

/**
 * The retry policy of CONTRACT §11 as a pure function: no answer, 408, 429, 5xx and
 * IDEMPOTENCY_KEY_IN_USE are retried (the same key makes a retry harmless); any other 4xx is final.
 */
export function decide<T>(outcome: HttpOutcome<T>, resource: z.ZodType<T>): Decision<T> {
  switch (outcome.kind) {
    case 'ok':
      return { type: 'ack', value: outcome.value };
    case 'unreachable':
      return { type: 'retry', error: { status: null, code: 'NETWORK', message: outcome.message }, retryAfterMs: undefined };
    case 'notModified':
    case 'malformed': {
      // The server acted but its answer breaks the contract: a person must look, nothing is dropped.
      const message = outcome.kind === 'malformed' ? outcome.message : 'Unexpected 304';
      const status = outcome.kind === 'malformed' ? outcome.status : 304;
      return { type: 'attention', error: { status, code: 'BAD_RESPONSE', message }, current: undefined };
    }
    case 'refused': {
      const code = outcome.problem?.code;
      const error = {
        status: outcome.status,
        code: code ?? `HTTP_${outcome.status}`,
        message: outcome.problem?.detail ?? `The server answered ${outcome.status}.`,
      };
      if (isTransient(outcome.status, code)) return { type: 'retry', error, retryAfterMs: outcome.retryAfterMs };
      const current = resource.safeParse(outcome.problem?.current);
      return { type: 'attention', error, current: current.success ? current.data : undefined };
    }
  }
}
