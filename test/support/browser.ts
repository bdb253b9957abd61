import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests run here. With REQUIRE_E2E=1 (CI) a missing Chromium is a failure, not a skip:
 * the suite throws at collection so the run goes red.
 */
export function browserAvailable(): boolean {
  const present = fs.existsSync(CHROMIUM_PATH);
  if (!present && process.env.REQUIRE_E2E === '1') {
    throw new Error(`REQUIRE_E2E=1 but no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  }
  return present;
}

/** The flags this sandbox needs (no sandbox as root, no background network), headless. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Chromium, headless, with the flags this sandbox needs. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
