import { describe, expect, it } from 'vitest';
import type { CreatedKiosk, PairedKiosk } from '../../shared/src/schemas/kiosks';
import { revokeToken } from '../../server/src/commands/provisioning';
import { attentionOf, drain, kioskServerForFile, openTestKiosk, serverPeople } from './harness';
import { buildSite, buildToken, buildWorld, kioskSite } from '../support/factories';
import { apiClient } from '../support/http';

// A kiosk whose token the server refuses (401: revoked, or paired again on another device) stops syncing
// at once, without a retry loop, keeps every saved action, and sends them with the token of a new pairing.

const harness = kioskServerForFile();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the kiosk says it is revoked, read once from its observable. */
const isRevoked = (kiosk: { revoked: { subscribe: (listener: (value: boolean) => void) => () => void } }) => {
  let value = false;
  kiosk.revoked.subscribe((next) => (value = next))();
  return value;
};

describe('a revoked kiosk', () => {
  it('stops syncing on the first 401, keeps its actions queued as they were, and syncs them once paired again', async () => {
    const { server } = harness;
    const world = await buildWorld(server);
    const site = await buildSite(server, world.accountId, 'Lobby');
    const { token: managerToken } = await buildToken(server, {
      accountId: world.accountId,
      allSites: true,
      scopes: ['kiosks:manage'],
    });
    const manager = apiClient(server.baseUrl, managerToken);
    const created = await manager.post<CreatedKiosk>('/v1/kiosks', {
      siteId: site.siteId,
      mode: 'visitor',
      name: 'Front desk',
    });
    const kioskId = created.body.kiosk.kioskId;
    /** A fresh code for the kiosk, exchanged as a tablet does: the kiosk's new token (the one before stops working). */
    const pairAgain = async () => {
      const code = (await manager.post<{ pairingCode: string }>(`/v1/kiosks/${kioskId}/pairing-code`)).body.pairingCode;
      return (await apiClient(server.baseUrl).post<PairedKiosk>('/v1/kiosk/pair', { code })).body.token;
    };
    const paired = (
      await apiClient(server.baseUrl).post<PairedKiosk>('/v1/kiosk/pair', { code: created.body.pairingCode })
    ).body;
    const lobby = { siteId: site.siteId, kioskToken: paired.token, api: world.api };
    const first = openTestKiosk(server, lobby);
    const { kiosk } = first;
    kiosk.start();
    const ada = await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Lovelace' } });
    if (!ada.ok) throw new Error(ada.message);
    await drain(kiosk);
    expect(isRevoked(kiosk)).toBe(false);

    // The kiosk is paired on another device: this one's token is refused from now on.
    await pairAgain();
    // Saved locally as ever: the screen never waits for the network.
    expect((await kiosk.checkIn({ person: { firstName: 'Bob', lastName: 'Revoked' } })).ok).toBe(true);
    expect((await kiosk.checkOut(ada.value.visitId)).ok).toBe(true);
    await expect.poll(() => isRevoked(kiosk)).toBe(true);
    await kiosk.engine.idle();

    // No retry loop: kicks, a pull asked for and time passing send nothing more.
    const sent = first.network.stats.sent;
    kiosk.engine.kick();
    await kiosk.engine.syncNow();
    await sleep(300);
    expect(first.network.stats.sent).toBe(sent);
    // Every action stays queued, untouched: not in Needs attention, no attempt counted against it.
    const actions = await kiosk.db.outbox.toArray();
    expect(actions.map((action) => [action.kind, action.state, action.attempts, action.lastError])).toEqual([
      ['PERSON_CHECKIN', 'QUEUED', 0, null],
      ['PERSON_CHECKOUT', 'QUEUED', 0, null],
    ]);
    expect(await attentionOf(kiosk)).toEqual([]);
    await kiosk.close();

    // This device is paired again with a new code: a new token, the same device database.
    const second = openTestKiosk(
      server,
      { ...lobby, kioskToken: await pairAgain() },
      { databaseName: first.databaseName },
    );
    second.kiosk.start();
    await drain(second.kiosk);
    expect(await second.kiosk.db.outbox.count()).toBe(0);
    expect(isRevoked(second.kiosk)).toBe(false);
    const people = await serverPeople(lobby);
    expect(people.map((person) => `${person.person.firstName} ${person.status}`).sort()).toEqual(['Ada OUT', 'Bob IN']);
    await second.kiosk.close();
  });

  it('a 401 answering a pull (nothing queued) is enough: the kiosk is revoked and stops pulling', async () => {
    const { server } = harness;
    const site = await kioskSite(server);
    const opened = openTestKiosk(server, site);
    await revokeToken(server.database, site.kioskTokenId, new Date());
    opened.kiosk.start();
    await expect.poll(() => isRevoked(opened.kiosk)).toBe(true);
    await opened.kiosk.engine.idle();
    const sent = opened.network.stats.sent;
    await opened.kiosk.engine.syncNow();
    expect(opened.network.stats.sent).toBe(sent);
    await opened.kiosk.close();
  });
});
