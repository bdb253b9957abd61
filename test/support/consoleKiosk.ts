import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser';
import { builtConsole } from './consoleBuild';
import { type KioskWeb, builtKiosk, kioskWebAt } from './kioskBuild';
import { type TestServer, startTestServer } from './testServer';

export interface ConsoleAndKiosk {
  server: TestServer;
  browser: Browser;
  web: KioskWeb;
}

/**
 * The API server (serving the built console and the built kiosk) and Chromium, for tests where the console's
 * changes must reach a kiosk; closed after them, with any server error printed first.
 */
export function consoleAndKioskHooks(onStarted: (started: ConsoleAndKiosk) => void): void {
  let started: ConsoleAndKiosk | undefined;
  beforeAll(async () => {
    await builtConsole();
    const [server, browser] = await Promise.all([
      startTestServer({ RATE_LIMIT_PER_MINUTE: '1000000', SIGNIN_FAILURES_PER_ADDRESS: '1000' }),
      launchChromium(),
      builtKiosk(),
    ]);
    started = { server, browser, web: kioskWebAt(server) };
    onStarted(started);
  }, 180_000);
  afterAll(async () => {
    for (const line of started?.server.logs ?? [])
      if (line.level === 'error') console.error('server error:', line.message, JSON.stringify(line.fields));
    await started?.browser.close();
    await started?.server.close();
  });
}
