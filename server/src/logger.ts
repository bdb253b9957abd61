import { pino } from 'pino';

/** The few calls the code makes; structured fields travel as an object, never interpolated. */
export interface Logger {
  info: (message: string, fields?: Record<string, unknown>) => void;
  warn: (message: string, fields?: Record<string, unknown>) => void;
  error: (message: string, fields?: Record<string, unknown>) => void;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

// Secrets never reach a log line, whatever a caller passes by mistake.
const REDACT = ['authorization', 'token', 'secret', '*.authorization', '*.token', '*.secret', 'headers.authorization'];

/** JSON lines on stdout (pino), one object per event. */
export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  const log = pino(
    { level, base: undefined, redact: { paths: REDACT, censor: '[redacted]' } },
    destination ?? process.stdout,
  );
  return {
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}
