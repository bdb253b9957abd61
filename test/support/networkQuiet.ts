import type { BrowserContext, Page, Request } from 'playwright-core';
import { expect } from 'vitest';

/** The event stream stays open for as long as the page lives: it is never "done", so it is not waited for. */
export const isEventStream = (request: Request) => new URL(request.url()).pathname === '/v1/events';

export interface NetworkFollower {
  /**
   * Resolves once no request is under way and none has started or ended for `quietMs`: whatever the page
   * had to ask (its start-up reads, the answer to an event) is done. A fixed sleep is not enough on a
   * loaded machine, where a start-up read may start or end seconds late and then be counted as the test's.
   */
  settled: (quietMs?: number, timeout?: number) => Promise<void>;
}

/**
 * Follows the requests of a page or of every page of a context, from now on (follow from before the page
 * loads to see its start-up reads as under way).
 */
export function followNetwork(target: Page | BrowserContext): NetworkFollower {
  const underWay = new Set<Request>();
  let lastActivity = Date.now();
  const started = (request: Request) => {
    if (isEventStream(request)) return;
    underWay.add(request);
    lastActivity = Date.now();
  };
  const ended = (request: Request) => {
    if (isEventStream(request)) return;
    underWay.delete(request);
    lastActivity = Date.now();
  };
  target.on('request', started);
  target.on('requestfinished', ended);
  target.on('requestfailed', ended);
  return {
    async settled(quietMs = 1_000, timeout = 20_000) {
      await expect
        .poll(() => underWay.size === 0 && Date.now() - lastActivity >= quietMs, { timeout, interval: 100 })
        .toBe(true);
    },
  };
}
