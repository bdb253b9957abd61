import { createMemoryLock } from './memoryLock';
import type { LockProvider, OnlineStatus, Platform } from './platform';

/** `navigator.onLine` and its events: the browser's (and Electron renderer's) idea of the link. */
function browserOnlineStatus(target: Window): OnlineStatus {
  return {
    isOnline: () => target.navigator.onLine,
    subscribe(listener) {
      const online = () => listener(true);
      const offline = () => listener(false);
      target.addEventListener('online', online);
      target.addEventListener('offline', offline);
      return () => {
        target.removeEventListener('online', online);
        target.removeEventListener('offline', offline);
      };
    },
  };
}

/** Web Locks span every window of the origin; without them, a lock for this window alone. */
function browserLocks(target: Window): LockProvider {
  const manager = target.navigator.locks as LockManager | undefined;
  if (!manager) return createMemoryLock();
  return {
    async withLock<T>(name: string, job: () => Promise<T>): Promise<T> {
      // request() resolves with what the callback returns (here a promise): await unwraps it.
      return await manager.request(name, job);
    },
  };
}

/** The platform of a browser tab or of Electron's renderer (the same web APIs). */
export function browserPlatform(target: Window = window): Platform {
  return {
    clock: {
      now: () => Date.now(),
      elapsed: () => target.performance.now(),
      setTimer(ms, callback) {
        const handle = target.setTimeout(callback, ms);
        return () => target.clearTimeout(handle);
      },
    },
    online: browserOnlineStatus(target),
    fetch: (url, init) => target.fetch(url, init),
    locks: browserLocks(target),
    randomUUID: () => target.crypto.randomUUID(),
  };
}
