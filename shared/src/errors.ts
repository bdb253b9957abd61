/** Every problem `code` the API returns, with the HTTP status it always travels with (docs/api.md, Errors). */
export const errorStatus = {
  MALFORMED_JSON: 400,
  MALFORMED_REQUEST: 400,
  INVALID_QUERY: 400,
  INVALID_IDEMPOTENCY_KEY: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  BREAK_ALREADY_OPEN: 409,
  NO_OPEN_BREAK: 409,
  CHECKIN_CLOSED: 409,
  CHECKIN_NOT_ADMITTED: 409,
  NOT_PENDING: 409,
  VEHICLE_ALREADY_ON_SITE: 409,
  LICENSE_PLATE_TAKEN: 409,
  LABEL_NAME_TAKEN: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  OCCURRED_AT_OUT_OF_RANGE: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** The codes a pure domain transition may reject with: state conflicts and time-range violations. */
export type TransitionRejectionCode = Extract<
  ErrorCode,
  | 'BREAK_ALREADY_OPEN'
  | 'NO_OPEN_BREAK'
  | 'CHECKIN_CLOSED'
  | 'CHECKIN_NOT_ADMITTED'
  | 'NOT_PENDING'
  | 'OCCURRED_AT_OUT_OF_RANGE'
>;
