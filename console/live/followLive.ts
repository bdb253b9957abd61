import type { StreamMessage } from '../../shared/src/client/eventStream';
import { followEvents } from '../../shared/src/client/followEvents';

/** While the stream is down, the live views are read whole this often (CONTRACT §25), jittered ±10 %. */
export const FALLBACK_POLL_MS = 30_000;
/** A stream still not open after this long is taken for down: the fallback poll starts. */
const DOWN_AFTER_MS = 5_000;

export interface FollowLiveOptions {
  /** Reads every live view afresh: the fallback poll's tick. */
  readAll: () => void;
  /** Each event of the stream, with when its connection was made (a `reset` needs no reading made after). */
  onEvent: (message: StreamMessage, connectedAt: number) => void;
  /** The stream refused the session (401): it ended. */
  onSignedOut: () => void;
  /** Whether the stream is open now (called as it opens and as it drops). */
  onStreaming?: (open: boolean) => void;
}

/**
 * The console's one event stream (docs/event-stream-clients.md): `GET /v1/events` with the session cookie
 * (same origin), resumed with Last-Event-ID after a cut; nothing polled while it is open, and every 30 s
 * (starting at a random point of the period, so consoles that lose a server together do not ask together)
 * while it is not.
 */
export function followLive(options: FollowLiveOptions): { stop: () => void } {
  let connectedAt = Date.now();
  let open = false;
  let leaving = false;
  let down: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setTimeout> | undefined;

  const pollAfter = (ms: number) => {
    poll = setTimeout(() => {
      if (document.visibilityState !== 'hidden') options.readAll();
      pollAfter(FALLBACK_POLL_MS * (0.9 + Math.random() * 0.2));
    }, ms);
  };
  const stopPolling = () => {
    clearTimeout(down);
    clearTimeout(poll);
    down = undefined;
    poll = undefined;
  };

  const follower = followEvents({
    url: `${window.location.origin}/v1/events`,
    onState: (state) => {
      options.onStreaming?.(state === 'open');
      if (state === 'open') {
        open = true;
        stopPolling();
      } else if (state === 'connecting') {
        open = false;
        connectedAt = Date.now();
        if (down === undefined && poll === undefined)
          down = setTimeout(() => pollAfter(Math.random() * FALLBACK_POLL_MS), DOWN_AFTER_MS);
      } else {
        stopPolling();
        if (!leaving) options.onSignedOut();
      }
    },
    onEvent: (message) => options.onEvent(message, connectedAt),
  });

  // A console shown again after a while in the background, with no stream, catches up at once.
  const shown = () => {
    if (!open && document.visibilityState === 'visible') options.readAll();
  };
  document.addEventListener('visibilitychange', shown);
  return {
    stop: () => {
      leaving = true;
      stopPolling();
      document.removeEventListener('visibilitychange', shown);
      follower.stop();
    },
  };
}
