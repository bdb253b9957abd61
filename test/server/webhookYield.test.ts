import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busyReader, startLoadSignal } from '../../server/src/jobs/loadSignal';
import type { WebhookDispatcher } from '../../server/src/jobs/webhookDispatcher';
import { visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { type Receiver, startReceiver } from '../support/webhookReceiver';
import { startTestDispatcher, subscribe } from '../support/webhooks';

const harness = serverAndWorld({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
let receiver: Receiver;
let dispatcher: WebhookDispatcher;
let busy = false;
const YIELD_MS = 1_500;

beforeAll(async () => {
  receiver = await startReceiver();
  dispatcher = startTestDispatcher(harness.server, { busy: () => busy, yieldMs: YIELD_MS });
  await subscribe(harness.world.api, { url: receiver.url(), events: ['PERSON_CHECKIN_ENTERED'] });
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether `check` holds at some point within `ms` (looked at every 10 ms). */
async function within(ms: number, check: () => boolean): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(10)) if (check()) return true;
  return check();
}
const checkIn = async () =>
  expect((await harness.world.api.post(`/v1/sites/${harness.world.siteId}/checkins/people`, visitor())).status).toBe(
    201,
  );

describe('webhook dispatch yields to busy requests (WEBHOOK_YIELD_MS)', () => {
  it('holds a new event back while the process is busy until it is WEBHOOK_YIELD_MS old, then delivers it; at once when not busy', async () => {
    await checkIn();
    await receiver.waitFor(1);

    busy = true;
    await sleep(100);
    const heldSince = Date.now();
    await checkIn();
    await sleep(300);
    expect(receiver.received).toHaveLength(1);
    // Still busy, but the work has waited long enough: it goes (no starvation under sustained load).
    await receiver.waitFor(2, undefined, 10_000);
    expect(Date.now() - heldSince).toBeGreaterThanOrEqual(YIELD_MS - 200);

    busy = false;
    await checkIn();
    await receiver.waitFor(3, undefined, 10_000);
  });

  it('stops without waiting out a yield, and sends what is due on the way out', async () => {
    busy = true;
    await sleep(100);
    await checkIn();
    const stopping = Date.now();
    await dispatcher.stop();
    expect(Date.now() - stopping).toBeLessThan(YIELD_MS);
    expect(receiver.received).toHaveLength(4);
  });
});

describe('the main thread load signal', () => {
  it('reads busy while the event loop runs code, and not once it idles', async () => {
    const signal = startLoadSignal();
    try {
      const isBusy = busyReader(signal.buffer);
      const spinUntil = Date.now() + 350;
      while (Date.now() < spinUntil) {
        // The event loop is held: the next sample counts it.
      }
      expect(await within(1_000, isBusy)).toBe(true);
      expect(await within(2_000, () => !isBusy())).toBe(true);
    } finally {
      signal.stop();
    }
  });
});
