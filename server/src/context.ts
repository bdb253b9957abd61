import type { RememberedCallers } from './auth/rememberedCallers';
import type { Env } from './config/env';
import type { Database } from './db/database';
import type { ExportThreads } from './exports/exportThreads';
import type { LiveEventHub } from './live/eventHub';
import type { KioskPresence } from './live/kioskPresence';
import type { Logger } from './logger';
import type { Metrics } from './observability/metrics';
import type { AddressLimiter } from './rateLimit/addressLimiter';
import type { RateLimiter } from './rateLimit/limiter';

/** What the app is built from: made once at start, shared by every request. */
export interface AppDeps {
  database: Database;
  env: Env;
  log: Logger;
  /** Check every response against its schema (tests): a presenter that drifts from the contract fails loudly. */
  validateResponses?: boolean;
  /** Wall clock; replaceable in tests. */
  clock?: () => Date;
  /** Shared with the background workers of the process (made by createApp when absent). */
  metrics?: Metrics;
  limiter?: RateLimiter;
  /** False once the process cannot recover by itself (its embedded database is gone): /healthz then says 503. */
  healthy?: () => boolean;
  /** The built staff console served at /console (dist/console when absent). */
  consoleDir?: string;
  /** The kiosk's production build served at /kiosk (dist/kiosk/renderer when absent). */
  kioskDir?: string;
  /** The visitor's phone page served at /visit/{code} (dist/visit when absent). */
  visitDir?: string;
  /** Where CSV exports run (made by createApp when absent: EXPORT_THREAD_DEFAULTS on the database's URL). */
  exportThreads?: ExportThreads;
  /** This instance's reader of published changes, for the event stream (made by createApp when absent). */
  liveEvents?: LiveEventHub;
  /** Marks the kiosks of this instance's open streams seen (made by createApp when absent). */
  kioskPresence?: KioskPresence;
}

/** The dependencies with every optional part made. */
export type ResolvedDeps = AppDeps & {
  metrics: Metrics;
  limiter: RateLimiter;
  addressLimiter: AddressLimiter;
  exportThreads: ExportThreads;
  rememberedCallers: RememberedCallers;
  liveEvents: LiveEventHub;
  kioskPresence: KioskPresence;
};
