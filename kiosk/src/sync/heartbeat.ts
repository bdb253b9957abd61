import type { Clock } from '../platform/platform';

/** How often a kiosk looks at what it would report (the console's Last seen, Pending, Needs attention). */
export const HEARTBEAT_INTERVAL_MS = 60_000;
/**
 * The longest a kiosk with its event stream open goes without a heartbeat while nothing it reports changes:
 * the open stream marks it seen (docs/event-stream-clients.md, Heartbeats), this only refreshes the report.
 */
export const QUIET_HEARTBEAT_MS = 15 * 60_000;

/** What a heartbeat reports (`POST /v1/kiosk/heartbeat`). */
export interface HeartbeatReport {
  pending: number;
  attention: number;
  appVersion: string;
}

/**
 * What became of one heartbeat: `notAKiosk` is the server's 404 (the token is not a paired kiosk's: an
 * integrator's token, or a server older than heartbeats), which stops them for the session, silently.
 */
export type HeartbeatAnswer = 'sent' | 'notAKiosk' | 'failed';

export interface HeartbeatOptions {
  clock: Pick<Clock, 'setTimer' | 'elapsed'>;
  /** What the kiosk would report now (its outbox's counts and its version). */
  report: () => Promise<HeartbeatReport>;
  /** Sends one heartbeat. */
  send: (report: HeartbeatReport) => Promise<HeartbeatAnswer>;
  /** The device has a link: without one a heartbeat is not tried (it waits for the next interval). */
  hasLink: () => boolean;
  /** The token was refused (401): heartbeats stop with the sync. */
  isRevoked: () => boolean;
  /** True while the kiosk's event stream is open: the server counts that as the kiosk being seen. */
  streamOpen?: () => boolean;
  intervalMs?: number;
  quietMs?: number;
  onError?: (error: unknown) => void;
}

const sameReport = (a: HeartbeatReport, b: HeartbeatReport) =>
  a.pending === b.pending && a.attention === b.attention && a.appVersion === b.appVersion;

/**
 * Looks at once and then about every minute while there is a link, until stopped, revoked or refused with a 404,
 * and sends a heartbeat when it is due: always while no event stream is open; with one open, only when the
 * report changed since the last one the server took, or `quietMs` after it.
 */
export function scheduleHeartbeat(options: HeartbeatOptions): { stop: () => void } {
  const intervalMs = options.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  const quietMs = options.quietMs ?? QUIET_HEARTBEAT_MS;
  let cancel: (() => void) | undefined;
  let done = false;
  let last: { report: HeartbeatReport; at: number } | undefined;
  const due = (report: HeartbeatReport) =>
    !(options.streamOpen?.() ?? false) ||
    last === undefined ||
    !sameReport(report, last.report) ||
    // On the monotonic clock: a wall clock set back must not silence the kiosk.
    options.clock.elapsed() - last.at >= quietMs;
  const beat = async (): Promise<HeartbeatAnswer | 'skipped'> => {
    const report = await options.report();
    if (!due(report)) return 'skipped';
    const answer = await options.send(report);
    if (answer === 'sent') last = { report, at: options.clock.elapsed() };
    return answer;
  };
  const tick = async () => {
    cancel = undefined;
    if (options.isRevoked()) return;
    if (options.hasLink()) {
      const answer = await beat().catch((error: unknown): HeartbeatAnswer => {
        options.onError?.(error);
        return 'failed';
      });
      if (answer === 'notAKiosk') done = true;
    }
    if (!done && !options.isRevoked()) cancel = options.clock.setTimer(intervalMs, () => void tick());
  };
  void tick();
  return {
    stop() {
      done = true;
      cancel?.();
      cancel = undefined;
    },
  };
}
