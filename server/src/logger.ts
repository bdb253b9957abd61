/** A small structured logger: one JSON object per line on stdout (stderr for errors). */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const levels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: 100 } as const;
export type LogLevel = keyof typeof levels;

export function createLogger(level: LogLevel): Logger {
  const threshold = levels[level];
  const write = (name: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => {
    if (levels[name] < threshold) return;
    const line = JSON.stringify({ level: name, time: new Date().toISOString(), msg: message, ...fields });
    (name === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}
