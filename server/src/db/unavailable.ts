import { BaseError, ConnectionAcquireTimeoutError, ConnectionError } from 'sequelize';

// Postgres is down, restarting, or refusing: class 08 (connection), 57P0x (shutdown), 53300 (too many connections).
const UNAVAILABLE_SQLSTATE = /^(08|57P0|53300)/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

function causeOf(error: unknown): { code?: unknown; message?: unknown } | undefined {
  if (error instanceof BaseError && 'parent' in error) return error.parent as { code?: unknown };
  if (error instanceof BaseError && 'original' in error) return error.original as { code?: unknown };
  return undefined;
}

/** True when the error means "the database cannot be reached right now", so a retry may succeed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof ConnectionAcquireTimeoutError) return true;
  const cause = causeOf(error) ?? (error as { code?: unknown; message?: unknown } | null);
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const message = typeof cause?.message === 'string' ? cause.message : '';
  return (
    UNAVAILABLE_SQLSTATE.test(code) ||
    UNAVAILABLE_ERRNO.has(code) ||
    /Connection terminated|connection is closed|not queryable|Query read timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      message,
    )
  );
}
