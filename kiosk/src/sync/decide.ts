import type { z } from 'zod';
import type { HttpOutcome } from '../../../shared/src/client/http';
import { MAX_PAST_MS } from '../../../shared/src/domain';
import type { ActionError } from '../data/types';
import { roughDuration } from '../roughDuration';

/** What to do with an action after one attempt. */
export type Decision<T> =
  | { type: 'ack'; value: T }
  | { type: 'retry'; error: ActionError; retryAfterMs: number | undefined }
  /** Refused for good: shown in Needs attention. `current` is the resource the server sent along (409). */
  | { type: 'attention'; error: ActionError; current: T | undefined }
  /**
   * Refused for a time in the future: the stamp was wrong, and the stored refusal had no effect. It goes
   * again at once, at `occurredAt`, under a new key (the old one would replay the refusal).
   */
  | { type: 'restamp'; error: ActionError; occurredAt: string }
  /** 401: the kiosk's token is no longer accepted. The action stays queued, untouched, for a new pairing's token. */
  | { type: 'revoked' };

/** What the kiosk knows about an action's time when the answer to it arrives (serverClock.ts). */
export interface StampCheck {
  /** The action's time as sent. */
  occurredAt: string;
  /** The device clock's own reading it was stamped from; undefined on actions queued before it was kept. */
  deviceAt: number | undefined;
  /** The server's time at this answer (its `Date`); undefined if no answer showed it. */
  serverNowMs: number | undefined;
  /** What the device clock needs added now, learnt from this answer. */
  correctionMs: number;
  /** False when the action was restamped after its last attempt: refused again, it is for a person to see. */
  mayRestamp: boolean;
}

/** A restamped time is at most this far ahead of the server's clock, and this far inside its 7 days. */
const RESTAMP_MARGIN_MS = 60_000;

const duration = (ms: number) => roughDuration(ms, { hoursFrom: 120, daysFrom: 48 });

/**
 * A 422 OCCURRED_AT_OUT_OF_RANGE for a time ahead of the server's proves the stamp wrong: restamp it from the
 * device's reading plus this answer's correction, or tell a person why. Undefined for a time over 7 days old,
 * which may be real (docs/kiosk-sync.md, The time actions are stamped with).
 */
function stampedAhead<T>(error: ActionError, stamp: StampCheck): Decision<T> | undefined {
  const sentMs = Date.parse(stamp.occurredAt);
  const serverMs = stamp.serverNowMs;
  if (serverMs === undefined || !(sentMs > serverMs)) return undefined;
  if (stamp.mayRestamp && stamp.deviceAt !== undefined) {
    const at = stamp.deviceAt + stamp.correctionMs;
    if (at <= serverMs + RESTAMP_MARGIN_MS && at >= serverMs - MAX_PAST_MS + RESTAMP_MARGIN_MS) {
      return { type: 'restamp', error, occurredAt: new Date(at).toISOString() };
    }
  }
  const message =
    `It was recorded ${duration(sentMs - serverMs)} ahead of the server's clock: this device's clock was wrong, and ` +
    "when it really happened cannot be worked out. Check the device's date and time, then discard it and record it again.";
  return {
    type: 'attention',
    error: { status: error.status, code: 'OCCURRED_AT_IN_FUTURE', message },
    current: undefined,
  };
}

/** The statuses that say "not now" rather than "no" (docs/kiosk-sync.md, What happens to an answer). */
function isTransient(status: number, code: string | undefined): boolean {
  return status === 408 || status === 429 || status >= 500 || (status === 409 && code === 'IDEMPOTENCY_KEY_IN_USE');
}

/**
 * The retry policy (docs/kiosk-sync.md, What happens to an answer) as a pure function: no answer, 408, 429,
 * 5xx and IDEMPOTENCY_KEY_IN_USE are retried under the same key; a 401 stops the sync (the kiosk was revoked);
 * any other 4xx is final, except a time refused as in the future, which is restamped when `stamp` allows it.
 */
export function decide<T>(outcome: HttpOutcome<T>, resource: z.ZodType<T>, stamp?: StampCheck): Decision<T> {
  switch (outcome.kind) {
    case 'ok':
      return { type: 'ack', value: outcome.value };
    case 'unreachable':
      return {
        type: 'retry',
        error: { status: null, code: 'NETWORK', message: outcome.message },
        retryAfterMs: undefined,
      };
    case 'notModified':
    case 'malformed': {
      // The server acted but its answer breaks its schema: a person must look, nothing is dropped.
      const message = outcome.kind === 'malformed' ? outcome.message : 'Unexpected 304';
      const status = outcome.kind === 'malformed' ? outcome.status : 304;
      return { type: 'attention', error: { status, code: 'BAD_RESPONSE', message }, current: undefined };
    }
    case 'refused': {
      const code = outcome.problem?.code;
      const errors = outcome.problem?.errors;
      const error: ActionError = {
        status: outcome.status,
        code: code ?? `HTTP_${outcome.status}`,
        message: outcome.problem?.detail ?? `The server answered ${outcome.status}.`,
        // The field errors are the only part of a 422 that says what to fix: Needs attention shows them.
        ...(errors && errors.length > 0 ? { errors } : {}),
      };
      if (isTransient(outcome.status, code)) return { type: 'retry', error, retryAfterMs: outcome.retryAfterMs };
      if (outcome.status === 401) return { type: 'revoked' };
      const ahead =
        outcome.status === 422 && code === 'OCCURRED_AT_OUT_OF_RANGE' && stamp
          ? stampedAhead<T>(error, stamp)
          : undefined;
      if (ahead) return ahead;
      const current = resource.safeParse(outcome.problem?.current);
      return { type: 'attention', error, current: current.success ? current.data : undefined };
    }
  }
}
