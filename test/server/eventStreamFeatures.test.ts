import { afterEach, describe, expect, it } from 'vitest';
import type { Host, HostImportResult } from '../../shared/src/schemas/hosts';
import type { Invitation, InvitationImportResult } from '../../shared/src/schemas/invitations';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { type OpenStream, type ReceivedEvent, openEventStream } from '../support/eventStream';
import { buildToken } from '../support/factories';
import { invite, passOf } from '../support/invitations';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Issue #38: invitations and hosts publish their events (docs/api.md, Event stream), so that the console's
// Expected and Hosts pages follow the stream instead of polling; and only those who may read them get them.

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' } });

const open: OpenStream[] = [];
async function stream(options: Parameters<typeof openEventStream>[1]): Promise<OpenStream> {
  const opened = await openEventStream(harness.server.baseUrl, options);
  open.push(opened);
  await opened.waitFor((event) => event.event === 'reset');
  return opened;
}
afterEach(() => {
  for (const opened of open.splice(0)) opened.close();
});

const invitationEvent = (invitationId: number, status: string) => (event: ReceivedEvent) =>
  event.event === 'invitation' && event.data.invitationId === invitationId && event.data.status === status;
const ofType = (events: OpenStream, type: string) => events.events.filter((event) => event.event === type);

describe('GET /v1/events: invitations', () => {
  it('each create, change, resend, cancel and import, and an arrival by pass: ids and states only', async () => {
    const { world } = harness;
    const events = await stream({ token: world.token });

    const ada = await invite(world.api, world.siteId, {
      person: { firstName: 'Zebedee', lastName: 'Pass', email: 'zp@example.com' },
    });
    await events.waitFor(invitationEvent(ada.invitationId, 'expected'));
    const changed = await world.api.patch<Invitation>(`/v1/invitations/${ada.invitationId}`, { purpose: 'Audit' });
    expect(changed.status, changed.text).toBe(200);
    const resent = await world.api.post(`/v1/invitations/${ada.invitationId}/resend`, {});
    expect(resent.status, resent.text).toBe(200);
    const cancelled = await world.api.post(`/v1/invitations/${ada.invitationId}/cancel`, {});
    expect(cancelled.status, cancelled.text).toBe(200);
    await events.waitFor(invitationEvent(ada.invitationId, 'cancelled'));
    expect(events.events.filter((event) => event.data.invitationId === ada.invitationId).map((e) => e.data)).toEqual(
      ['expected', 'expected', 'expected', 'cancelled'].map((status) => ({
        siteId: world.siteId,
        invitationId: ada.invitationId,
        status,
      })),
    );

    const grace = await invite(world.api, world.siteId, { person: { firstName: 'Grace', lastName: 'Pass' } });
    const pass = await passOf(world.api, grace.invitationId);
    const arrived = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: {},
      pass: pass.token,
    });
    expect(arrived.status, arrived.text).toBe(201);
    const arrival = await events.waitFor(invitationEvent(grace.invitationId, 'arrived'));
    expect(arrival.data).toEqual({ siteId: world.siteId, invitationId: grace.invitationId, status: 'arrived' });
    // A second use of the same pass is held for reception: the invitation does not change again.
    const again = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: {},
      pass: pass.token,
    });
    expect(again.status, again.text).toBe(201);
    expect(again.body.status).toBe('PENDING');

    const imported = await world.api.request<InvitationImportResult>('POST', '/v1/invitations/import', {
      rawBody: `site,firstName,lastName,expectedAt\n${world.siteId},Imre,Imported,${new Date(Date.now() + 3_600_000).toISOString()}\n`,
      headers: { 'Content-Type': 'text/csv' },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.created).toBe(1);
    const known = [ada.invitationId, grace.invitationId];
    const news = await events.waitFor(
      (event) => event.event === 'invitation' && !known.includes(Number(event.data.invitationId)),
    );
    expect(news.data.status).toBe('expected');
    const imre = await world.api.get<Invitation>(`/v1/invitations/${Number(news.data.invitationId)}`);
    expect(imre.body.person.lastName).toBe('Imported');

    expect(ofType(events, 'invitation').filter(invitationEvent(grace.invitationId, 'arrived'))).toHaveLength(1);
    expect(events.text()).not.toMatch(/Zebedee|Grace|Imre|zp@example/);
  });

  it('reach only those who may read invitations, of their sites', async () => {
    const { server, world } = harness;
    const desk = await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.siteId] });
    const guard = await staffClient(server, { accountId: world.accountId, role: 'security' });
    const deskEvents = await stream({ cookie: desk.api.cookie });
    const guardEvents = await stream({ cookie: guard.api.cookie });

    const elsewhere = await invite(world.api, world.otherSiteId, { person: { firstName: 'Other', lastName: 'Site' } });
    const here = await invite(world.api, world.siteId, { person: { firstName: 'This', lastName: 'Site' } });
    await deskEvents.waitFor(invitationEvent(here.invitationId, 'expected'));
    // A check-in after both: once it has arrived, so would have anything published before it.
    const marker = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: { firstName: 'Marker', lastName: 'Visit' },
    });
    const isMarker = (event: ReceivedEvent) =>
      event.event === 'checkin' && event.data.checkinId === marker.body.checkinId;
    await deskEvents.waitFor(isMarker);
    await guardEvents.waitFor(isMarker);
    expect(ofType(deskEvents, 'invitation').map((event) => event.data.invitationId)).toEqual([here.invitationId]);
    expect(elsewhere.invitationId).not.toBe(here.invitationId);
    // Security reads no invitations: it gets none of their events.
    expect(ofType(guardEvents, 'invitation')).toEqual([]);
  });
});

describe('GET /v1/events: hosts', () => {
  it('a create, a change of sites, a delete and an import: each site whose hosts changed, once', async () => {
    const { world } = harness;
    const events = await stream({ token: world.token });
    const sites = (from: number) =>
      ofType(events, 'hosts')
        .slice(from)
        .map((event) => event.data.siteId);

    const created = await world.api.post<Host>('/v1/hosts', { name: 'Hedy Host', siteIds: [world.siteId] });
    expect(created.status, created.text).toBe(201);
    await events.waitFor((event) => event.event === 'hosts');
    expect(sites(0)).toEqual([world.siteId]);

    // Moved to the other site: both sites' lists changed.
    let from = ofType(events, 'hosts').length;
    const moved = await world.api.patch<Host>(`/v1/hosts/${created.body.hostId}`, { siteIds: [world.otherSiteId] });
    expect(moved.status, moved.text).toBe(200);
    await events.waitFor(() => ofType(events, 'hosts').length >= from + 2);
    expect(sites(from).sort()).toEqual([world.siteId, world.otherSiteId].sort());

    from = ofType(events, 'hosts').length;
    expect((await world.api.delete(`/v1/hosts/${created.body.hostId}`)).status).toBe(204);
    await events.waitFor(() => ofType(events, 'hosts').length > from);
    expect(sites(from)).toEqual([world.otherSiteId]);

    // A host of every site: one event for the whole account.
    from = ofType(events, 'hosts').length;
    const everywhere = await world.api.post<Host>('/v1/hosts', { name: 'Every Where', allSites: true });
    expect(everywhere.status, everywhere.text).toBe(201);
    await events.waitFor(() => ofType(events, 'hosts').length > from);
    expect(sites(from)).toEqual([null]);

    // An import of two lines on one site: one event for the site, not one per line.
    from = ofType(events, 'hosts').length;
    const file = `name,email,phone,sites\nOne Line,one@example.com,,${world.siteId}\nTwo Line,two@example.com,,${world.siteId}\n`;
    const imported = await world.api.request<HostImportResult>('POST', '/v1/hosts/import', {
      rawBody: file,
      headers: { 'Content-Type': 'text/csv' },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.created).toBe(2);
    await events.waitFor(() => ofType(events, 'hosts').length > from);
    const marker = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: { firstName: 'Marker', lastName: 'Visit' },
    });
    await events.waitFor((event) => event.event === 'checkin' && event.data.checkinId === marker.body.checkinId);
    expect(sites(from)).toEqual([world.siteId]);
    expect(events.text()).not.toMatch(/Hedy|Every Where|one@example/);
  });

  it('a token that manages hosts only gets them; one of another site does not', async () => {
    const { server, world } = harness;
    const manager = await buildToken(server, { accountId: world.accountId, scopes: ['hosts:manage'] });
    const otherSite = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.otherSiteId],
      scopes: ['checkins:read'],
    });
    const managerEvents = await stream({ token: manager.token });
    const otherEvents = await stream({ token: otherSite.token });
    const created = await world.api.post<Host>('/v1/hosts', { name: 'Scoped Host', siteIds: [world.siteId] });
    expect(created.status, created.text).toBe(201);
    await managerEvents.waitFor((event) => event.event === 'hosts' && event.data.siteId === world.siteId);
    const marker = await world.api.post<PersonCheckin>(`/v1/sites/${world.otherSiteId}/checkins/people`, {
      person: { firstName: 'Marker', lastName: 'Visit' },
    });
    await otherEvents.waitFor((event) => event.event === 'checkin' && event.data.checkinId === marker.body.checkinId);
    expect(ofType(otherEvents, 'hosts')).toEqual([]);
  });
});
