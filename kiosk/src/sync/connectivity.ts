import type { OnlineStatus } from '../platform/platform';

/**
 * Online as the status bar means it: the device has a link AND the server answered the last request.
 * `navigator.onLine` alone says nothing about a captive portal or a server that is down.
 */
export interface Connectivity {
  isOnline: () => boolean;
  /** The device's own idea only (requests are pointless without a link). */
  hasLink: () => boolean;
  report: (reachable: boolean) => void;
  subscribe: (listener: (online: boolean) => void) => () => void;
  /** Stops listening to the device's link. */
  dispose: () => void;
}

export function createConnectivity(link: OnlineStatus): Connectivity {
  const listeners = new Set<(online: boolean) => void>();
  let reachable = true;
  let last = link.isOnline();
  const state = () => link.isOnline() && reachable;
  const notify = () => {
    const now = state();
    if (now === last) return;
    last = now;
    for (const listener of listeners) listener(now);
  };
  const unsubscribe = link.subscribe((online) => {
    // A new link deserves the benefit of the doubt until a request says otherwise.
    if (online) reachable = true;
    notify();
  });
  return {
    isOnline: state,
    hasLink: () => link.isOnline(),
    report(next) {
      reachable = next;
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: unsubscribe,
  };
}
