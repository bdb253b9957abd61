import type { Observable } from '../../src/data/observe';

/** How often a kiosk that nobody reloads asks its server for a newer build (also whenever it comes online). */
const CHECK_EVERY_MS = 60 * 60_000;

/** A newer build of the kiosk, downloaded by the service worker and waiting until the kiosk lets it in. */
export interface AppUpdate {
  /** True while a newer build is on the device, waiting to take over. */
  waiting: Observable<boolean>;
  /** Lets the waiting build take over: the page reloads into it. */
  apply: () => void;
}

/**
 * Whether this page runs the service worker: a production build served over http(s) from a secure origin
 * (https, or localhost). Not the Vite dev server, and not Electron's app://, which loads every file from
 * disk anyway (docs/kiosk-tablet.md).
 */
export function serviceWorkerAllowed(win: Window): boolean {
  return (
    import.meta.env.PROD &&
    win.isSecureContext &&
    'serviceWorker' in win.navigator &&
    (win.location.protocol === 'https:' || win.location.protocol === 'http:')
  );
}

/**
 * Registers the kiosk's service worker (kiosk/vite.config.ts: Workbox, precaching the whole build), and
 * tells when a newer build waits. It never takes over by itself: the kiosk calls `apply` at a quiet moment
 * (useUpdateWhenQuiet), so neither a sync nor a visitor half-way through the form is cut off.
 */
export function startServiceWorker(win: Window): AppUpdate | undefined {
  if (!serviceWorkerAllowed(win)) return undefined;
  const container = win.navigator.serviceWorker;
  let waiting = false;
  let applying = false;
  const listeners = new Set<(value: boolean) => void>();
  const setWaiting = (value: boolean) => {
    waiting = value;
    for (const listener of listeners) listener(value);
  };
  // Installed while a service worker controls the page: a newer build, not the first one.
  const track = (worker: ServiceWorker | null) => {
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed' && container.controller) setWaiting(true);
    });
  };
  container.addEventListener('controllerchange', () => {
    if (applying) win.location.reload();
  });

  let registration: ServiceWorkerRegistration | undefined;
  const check = () => void registration?.update().catch(() => undefined);
  const register = () =>
    void container
      .register('./sw.js', { scope: './' })
      .then((registered) => {
        registration = registered;
        if (registered.waiting && container.controller) setWaiting(true);
        track(registered.installing);
        registered.addEventListener('updatefound', () => track(registered.installing));
        win.setInterval(check, CHECK_EVERY_MS);
        win.addEventListener('online', check);
      })
      // The kiosk works without it (it then needs the network to open): nothing else depends on it.
      .catch((error: unknown) => console.warn('The service worker could not be registered:', error));
  // After the page has loaded: copying the build to the device must not slow the kiosk's first screen.
  if (win.document.readyState === 'complete') register();
  else win.addEventListener('load', register, { once: true });

  return {
    waiting: {
      subscribe(listener) {
        listeners.add(listener);
        listener(waiting);
        return () => listeners.delete(listener);
      },
    },
    apply() {
      if (!waiting || applying) return;
      applying = true;
      // The waiting worker activates and claims this page (controllerchange, above), which then reloads.
      // Another tab may have let it in already: then this page only needs the reload.
      if (registration?.waiting) registration.waiting.postMessage({ type: 'SKIP_WAITING' });
      else win.location.reload();
    },
  };
}
