import { afterEach, describe, expect, it } from 'vitest';
import type { Kiosk } from '../../shared/src/schemas/kiosks';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { type OpenStream, openEventStream } from '../support/eventStream';
import { apiClient } from '../support/http';
import { pairedKiosk } from '../support/kiosks';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Issue #38: heartbeats ride on the stream. A kiosk whose event stream is open is seen (its Last seen on the
// Kiosks page moves on) without a heartbeat a minute; one whose stream closed ages from then, as before.
// Marked seen every second here (a minute by default), so the test does not wait a minute.
const harness = serverAndWorld({
  env: { EVENTS_KIOSK_SEEN_SECONDS: '1', SIGNIN_FAILURES_PER_ADDRESS: '1000' },
  worldPerTest: true,
});
const HOUR_MS = 3_600_000;

const open: OpenStream[] = [];
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});
async function streamOf(token: string): Promise<OpenStream> {
  const stream = await openEventStream(harness.server.baseUrl, { token });
  open.push(stream);
  expect(stream.status).toBe(200);
  await stream.waitFor((event) => event.event === 'reset');
  return stream;
}

async function newKiosk() {
  const { world, server } = harness;
  const paired = await pairedKiosk(server, { accountId: world.accountId, siteId: world.siteId, mode: 'gate' });
  const { api } = await staffClient(server, { accountId: world.accountId, role: 'owner' });
  /** The kiosk as the console's Kiosks page reads it. */
  const listed = async () => {
    const answer = await api.get<{ data: Kiosk[] }>('/v1/kiosks');
    expect(answer.status).toBe(200);
    const kiosk = answer.body.data.find((item) => item.kioskId === paired.kioskId);
    if (!kiosk) throw new Error('the kiosk is not listed');
    return kiosk;
  };
  const lastSeen = async () => {
    const at = (await listed()).lastSeenAt;
    return at === null ? undefined : Date.parse(at);
  };
  return { paired, listed, lastSeen };
}

/** The event streams the server holds open (its `gatehouse_event_streams` metric). */
async function openStreams(baseUrl: string): Promise<number | undefined> {
  const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
  const found = /^gatehouse_event_streams (\d+)$/m.exec(metrics);
  return found ? Number(found[1]) : undefined;
}

/** Moves the kiosk's last seen an hour back, as if it had not been heard of since. */
const ageKiosk = (kioskId: number) =>
  queryRows(
    harness.server.database,
    sql`UPDATE kiosks SET last_seen_at = now() - interval '1 hour' WHERE account_id = ${harness.world.accountId} AND id = ${kioskId}`,
  );

describe("a kiosk's open event stream counts as the kiosk being seen", () => {
  it('seen when its stream opens and again while it stays open, with no heartbeat; it ages once the stream closes', async () => {
    const { paired, lastSeen, listed } = await newKiosk();
    // Paired, never heard of since.
    expect(await lastSeen()).toBeUndefined();
    const opened = Date.now();
    const stream = await streamOf(paired.token);
    await expect.poll(lastSeen, { timeout: 5_000 }).toBeGreaterThanOrEqual(opened - 1_000);

    // While it stays open it is marked seen again (every EVENTS_KIOSK_SEEN_SECONDS).
    await ageKiosk(paired.kioskId);
    expect(await lastSeen()).toBeLessThan(Date.now() - HOUR_MS + 60_000);
    const aged = Date.now();
    await expect.poll(lastSeen, { timeout: 5_000 }).toBeGreaterThanOrEqual(aged - 1_000);
    // The stream said nothing about counts: those are the heartbeat's.
    expect(await listed()).toMatchObject({ pending: null, attention: null, appVersion: null });

    // Closed, it is seen at the close and then ages: nothing marks it seen any more. The server has noticed the
    // close once it holds no stream; the close's own write follows at its next tick, which a loaded machine may
    // run late (after the aging below): so it is aged again if it was seen meanwhile, at most three times. A
    // stream still marking it seen (every second) would be seen within each 2.5 s.
    stream.close();
    await expect.poll(() => openStreams(harness.server.baseUrl)).toBe(0);
    let stayedAged = false;
    for (let tries = 0; tries < 3 && !stayedAged; tries += 1) {
      await ageKiosk(paired.kioskId);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      stayedAged = (await lastSeen())! < Date.now() - HOUR_MS + 60_000;
    }
    expect(stayedAged).toBe(true);
  });

  it('a heartbeat still records the counts, and a stream never moves last seen back', async () => {
    const { paired, listed, lastSeen } = await newKiosk();
    const stream = await streamOf(paired.token);
    await expect.poll(lastSeen, { timeout: 5_000 }).toBeDefined();
    const kioskApi = apiClient(harness.server.baseUrl, paired.token);
    const beat = await kioskApi.post('/v1/kiosk/heartbeat', { pending: 2, attention: 1, appVersion: '9.9.9' });
    expect(beat.status).toBe(204);
    expect(await listed()).toMatchObject({ pending: 2, attention: 1, appVersion: '9.9.9' });
    // A later time on the row (a heartbeat from another instance's clock, say) stays: the stream writes only forward.
    const ahead = new Date(Date.now() + HOUR_MS);
    await queryRows(
      harness.server.database,
      sql`UPDATE kiosks SET last_seen_at = ${ahead} WHERE account_id = ${harness.world.accountId} AND id = ${paired.kioskId}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await lastSeen()).toBe(ahead.getTime());
    stream.close();
  });

  it('only the kiosk whose stream is open is seen: a silent one beside it, and an integrator streaming, mark none', async () => {
    const streaming = await newKiosk();
    const silent = await newKiosk();
    await streamOf(harness.world.token);
    await streamOf(streaming.paired.token);
    await expect.poll(streaming.lastSeen, { timeout: 5_000 }).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await silent.lastSeen()).toBeUndefined();
  });
});
