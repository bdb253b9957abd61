import type { Clock } from '../platform/platform';

/** How often a kiosk tells its server it is alive (the console's Last seen, Pending, Needs attention). */
export const HEARTBEAT_INTERVAL_MS = 60_000;

/**
 * What became of one heartbeat: `notAKiosk` is the server's 404 (the token is not a paired kiosk's: an
 * integrator's token, or a server older than heartbeats), which stops them for the session, silently.
 */
export type HeartbeatAnswer = 'sent' | 'notAKiosk' | 'failed';

export interface HeartbeatOptions {
  clock: Pick<Clock, 'setTimer'>;
  /** Sends one heartbeat with the counts as they are now. */
  beat: () => Promise<HeartbeatAnswer>;
  /** The device has a link: without one a heartbeat is not tried (it waits for the next interval). */
  hasLink: () => boolean;
  /** The token was refused (401): heartbeats stop with the sync. */
  isRevoked: () => boolean;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

/** Beats at once and then about every minute while there is a link, until stopped, revoked or refused with a 404. */
export function scheduleHeartbeat(options: HeartbeatOptions): { stop: () => void } {
  const intervalMs = options.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  let cancel: (() => void) | undefined;
  let done = false;
  const tick = async () => {
    cancel = undefined;
    if (options.isRevoked()) return;
    if (options.hasLink()) {
      const answer = await options.beat().catch((error: unknown): HeartbeatAnswer => {
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
