import type { Clock } from '../platform/platform';

/** One pending wake-up at a time: setting a new time replaces the old one. */
export interface WakeTimer {
  wakeAt: (atMs: number) => void;
  cancel: () => void;
}

export function wakeTimer(clock: Clock, onWake: () => void): WakeTimer {
  let cancel: (() => void) | undefined;
  return {
    wakeAt(atMs) {
      cancel?.();
      cancel = clock.setTimer(Math.max(0, atMs - clock.now()), () => {
        cancel = undefined;
        onWake();
      });
    },
    cancel() {
      cancel?.();
      cancel = undefined;
    },
  };
}
