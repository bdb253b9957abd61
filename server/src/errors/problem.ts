import { type ErrorCode, type TransitionRejectionCode, errorStatus } from '../../../shared/src/errors';

export interface FieldError {
  path: string;
  message: string;
}

const titles: Partial<Record<ErrorCode, string>> = {
  MALFORMED_JSON: 'Malformed JSON',
  INVALID_QUERY: 'Invalid query',
  INVALID_IDEMPOTENCY_KEY: 'Invalid Idempotency-Key',
  UNAUTHENTICATED: 'Unauthenticated',
  INSUFFICIENT_SCOPE: 'Insufficient scope',
  CSRF_REJECTED: 'Cross-site request rejected',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  BREAK_ALREADY_OPEN: 'Break already open',
  NO_OPEN_BREAK: 'No open break',
  CHECKIN_CLOSED: 'Check-in closed',
  CHECKIN_NOT_ADMITTED: 'Check-in not admitted',
  NOT_PENDING: 'Not pending',
  IDEMPOTENCY_KEY_IN_USE: 'Idempotency key in use',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  VALIDATION_FAILED: 'Validation failed',
  IDEMPOTENCY_KEY_REUSED: 'Idempotency key reused',
  OCCURRED_AT_OUT_OF_RANGE: 'occurredAt out of range',
  RATE_LIMITED: 'Rate limited',
  INTERNAL: 'Internal error',
  UNAVAILABLE: 'Service unavailable',
};

/** `NO_OPEN_BREAK` → "No open break"; used where no title is written down. */
function titleOf(code: ErrorCode): string {
  const fallback = code.toLowerCase().replaceAll('_', ' ');
  return titles[code] ?? fallback.charAt(0).toUpperCase() + fallback.slice(1);
}

/** An expected failure, carried to the error middleware and written as problem+json. */
export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extras: { errors?: FieldError[]; current?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.status = errorStatus[code];
  }

  /** The RFC 9457 body for a request. */
  toBody(instance: string, requestId: string): Record<string, unknown> {
    return {
      type: `urn:problem:${this.code.toLowerCase().replaceAll('_', '-')}`,
      title: titleOf(this.code),
      status: this.status,
      detail: this.detail,
      code: this.code,
      instance,
      requestId,
      ...(this.extras.errors ? { errors: this.extras.errors } : {}),
      ...(this.extras.current !== undefined ? { current: this.extras.current } : {}),
    };
  }
}

export const problem = (code: ErrorCode, detail: string, extras?: ProblemError['extras']) =>
  new ProblemError(code, detail, extras);

export const notFound = (detail = 'The resource does not exist or is not visible to this token.') =>
  new ProblemError('NOT_FOUND', detail);

export const conflict = (code: ErrorCode, detail: string, current?: unknown) =>
  new ProblemError(code, detail, current === undefined ? {} : { current });

/**
 * A transition the state machine refused, as the API answers it: an `occurredAt` out of range as itself,
 * any other refusal as 409 with the check-in (`what`, e.g. "Check-in 7") as `current`.
 */
export const transitionRefused = (
  refusal: { code: TransitionRejectionCode; message: string },
  what: string,
  current: unknown,
) =>
  refusal.code === 'OCCURRED_AT_OUT_OF_RANGE'
    ? problem(refusal.code, refusal.message)
    : conflict(refusal.code, `${what}: ${refusal.message}`, current);

export const validationFailed = (errors: FieldError[], detail = 'The request body is not valid.') =>
  new ProblemError('VALIDATION_FAILED', detail, { errors });
