import { describe, expect, it } from 'vitest';
import type { Host, HostImportResult, KioskHostList } from '../../shared/src/schemas/hosts';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { buildSite, buildToken, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

const harness = serverAndWorld({ worldPerTest: true, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });

async function addHost(body: Record<string, unknown>): Promise<Host> {
  const response = await harness.world.api.post<Host>('/v1/hosts', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const csv = (text: string) =>
  harness.world.api.request<HostImportResult>('POST', '/v1/hosts/import', {
    rawBody: text,
    headers: { 'Content-Type': 'text/csv' },
  });

describe('the host directory', () => {
  it('creates, reads, lists, changes and deletes a host', async () => {
    const { world } = harness;
    const host = await addHost({ name: 'Grace Hopper', email: 'grace@example.com', siteIds: [world.siteId] });
    expect(host).toMatchObject({
      name: 'Grace Hopper',
      email: 'grace@example.com',
      phone: null,
      siteIds: [world.siteId],
      allSites: false,
      notifyBy: ['email'],
      chatWebhookUrl: null,
      language: 'en',
    });
    expect((await world.api.get<Host>(`/v1/hosts/${host.hostId}`)).body).toEqual(host);
    const list = await world.api.get<{ data: Host[] }>('/v1/hosts?q=gra');
    expect(list.body.data.map((item) => item.hostId)).toEqual([host.hostId]);
    expect((await world.api.get<{ data: Host[] }>('/v1/hosts?q=zz')).body.data).toEqual([]);

    const chat = 'http://127.0.0.1:9/services/T1/B1/secret';
    const changed = await world.api.patch<Host>(`/v1/hosts/${host.hostId}`, {
      notifyBy: ['email', 'chat'],
      chatWebhookUrl: chat,
      siteIds: [world.siteId, world.otherSiteId],
      language: 'de',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      notifyBy: ['email', 'chat'],
      chatWebhookUrl: chat,
      siteIds: [world.siteId, world.otherSiteId].sort((a, b) => a - b),
      language: 'de',
    });
    expect((await world.api.delete(`/v1/hosts/${host.hostId}`)).status).toBe(204);
    expect((await world.api.get(`/v1/hosts/${host.hostId}`)).status).toBe(404);
  });

  it('refuses a channel without its address, a chat URL of neither Slack nor Teams, and a taken email', async () => {
    const { world } = harness;
    const noEmail = await world.api.post<{ errors: Array<{ path: string }> }>('/v1/hosts', {
      name: 'No Mail',
      siteIds: [world.siteId],
      notifyBy: ['email'],
    });
    expect(noEmail.status).toBe(422);
    expect(noEmail.body.errors.map((error) => error.path)).toEqual(['email']);
    const wrongChat = await world.api.post<{ errors: Array<{ path: string }> }>('/v1/hosts', {
      name: 'Chatty',
      siteIds: [world.siteId],
      notifyBy: ['chat'],
      chatWebhookUrl: 'http://127.0.0.1:9/somewhere',
    });
    expect(wrongChat.status).toBe(422);
    expect(wrongChat.body.errors.map((error) => error.path)).toEqual(['chatWebhookUrl']);
    await addHost({ name: 'First', email: 'same@example.com', siteIds: [world.siteId] });
    const taken = await world.api.post<{ code: string }>('/v1/hosts', {
      name: 'Second',
      email: 'SAME@example.com',
      siteIds: [world.siteId],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('EMAIL_TAKEN');
  });

  it('refuses a private chat address unless WEBHOOK_ALLOW_PRIVATE_URLS (the webhook address policy)', async () => {
    // This file's server allows them; the address policy itself is shared with webhooks and tested there.
    const { world } = harness;
    const refused = await world.api.post<{ errors: Array<{ path: string; message: string }> }>('/v1/hosts', {
      name: 'Nowhere',
      siteIds: [world.siteId],
      notifyBy: ['chat'],
      chatWebhookUrl: 'https://no-such-host.invalid/services/T1/B1/x',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]?.message).toMatch(/does not resolve/);
  });

  it('a manager sees and changes only the hosts of their sites, and gives only their sites', async () => {
    const { world, server } = harness;
    const mine = await addHost({ name: 'Mine', siteIds: [world.siteId] });
    const theirs = await addHost({ name: 'Theirs', siteIds: [world.otherSiteId] });
    const both = await addHost({ name: 'Both', siteIds: [world.siteId, world.otherSiteId] });
    const everywhere = await addHost({ name: 'Everywhere', allSites: true });
    const { api } = await staffClient(server, { accountId: world.accountId, role: 'manager', siteIds: [world.siteId] });
    const listed = await api.get<{ data: Host[] }>('/v1/hosts');
    expect(listed.body.data.map((host) => host.hostId)).toEqual([mine.hostId]);
    for (const hidden of [theirs, both, everywhere]) {
      expect((await api.get(`/v1/hosts/${hidden.hostId}`)).status).toBe(404);
      expect((await api.patch(`/v1/hosts/${hidden.hostId}`, { name: 'X' })).status).toBe(404);
      expect((await api.delete(`/v1/hosts/${hidden.hostId}`)).status).toBe(404);
    }
    expect((await api.post('/v1/hosts', { name: 'Elsewhere', siteIds: [world.otherSiteId] })).status).toBe(404);
    expect((await api.post('/v1/hosts', { name: 'All', allSites: true })).status).toBe(422);
    expect((await api.patch(`/v1/hosts/${mine.hostId}`, { siteIds: [world.otherSiteId] })).status).toBe(404);
    expect((await api.post('/v1/hosts', { name: 'Mine too', siteIds: [world.siteId] })).status).toBe(201);
    // Reception has no hosts:manage.
    const reception = await staffClient(server, { accountId: world.accountId, role: 'reception' });
    expect((await reception.api.get('/v1/hosts')).status).toBe(403);
  });
});

describe('importing hosts from CSV', () => {
  it('creates and updates by email, all or nothing per line, and is idempotent', async () => {
    const { world, server } = harness;
    const named = await buildSite(server, world.accountId, `Lobby ${Date.now()}`);
    await addHost({ name: 'Old Name', email: 'known@example.com', siteIds: [world.siteId], phone: '+1 555 0100' });
    const file = [
      'name,email,phone,sites',
      `Known Person,KNOWN@example.com,,${world.siteId}`,
      `"Hopper, Grace",grace@example.com,+44 20 7946 0000,${named.name}`,
      `Both Sites,both@example.com,,${world.siteId};${world.otherSiteId}`,
      'No Email,,,1',
      'Bad Site,bad@example.com,,No Such Site',
      `Twice,grace@example.com,,${world.siteId}`,
      '',
    ].join('\r\n');
    const first = await csv(file);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      created: 2,
      updated: 1,
      errors: [
        { line: 5, detail: 'email is empty' },
        { line: 6, detail: 'no site "No Such Site" that you can manage' },
        { line: 7, detail: 'email grace@example.com is on line 3 already' },
      ],
    });
    const hosts = (await world.api.get<{ data: Host[] }>('/v1/hosts')).body.data;
    expect(hosts.map((host) => [host.name, host.email, host.phone, host.siteIds])).toEqual([
      ['Known Person', 'KNOWN@example.com', null, [world.siteId]],
      ['Hopper, Grace', 'grace@example.com', '+44 20 7946 0000', [named.siteId]],
      ['Both Sites', 'both@example.com', null, [world.siteId, world.otherSiteId].sort((a, b) => a - b)],
    ]);
    const again = await csv(file);
    expect(again.body).toMatchObject({ created: 0, updated: 3 });
    expect((await world.api.get<{ data: Host[] }>('/v1/hosts')).body.data).toHaveLength(3);
  });

  it('refuses another header, a body that is not text/csv, and a file over 64 KiB', async () => {
    const { world } = harness;
    const header = await csv('first,last\nA,B\n');
    expect(header.status).toBe(422);
    const json = await world.api.post('/v1/hosts/import', { csv: 'name,email,phone,sites' });
    expect(json.status).toBe(415);
    const big = await csv(`name,email,phone,sites\n${'x'.repeat(70 * 1024)}`);
    expect(big.status).toBe(413);
  });
});

describe('hosts on the kiosk and on check-ins', () => {
  it("gives a kiosk the site's hosts as id and name only, with an ETag that changes with them", async () => {
    const { world, server } = harness;
    const grace = await addHost({ name: 'Grace', email: 'g@example.com', phone: '+1 555', siteIds: [world.siteId] });
    await addHost({ name: 'Alan', allSites: true });
    await addHost({ name: 'Elsewhere', siteIds: [world.otherSiteId] });
    const kiosk = await buildToken(server, { accountId: world.accountId, siteIds: [world.siteId], channel: 'KIOSK', mode: 'visitor' });
    const device = apiClient(server.baseUrl, kiosk.token);
    const path = `/v1/sites/${world.siteId}/kiosk/hosts`;
    const first = await device.get<KioskHostList>(path);
    expect(first.status).toBe(200);
    expect(first.body.data.map((host) => host.name)).toEqual(['Alan', 'Grace']);
    expect(first.body.data.every((host) => Object.keys(host).sort().join() === 'hostId,name')).toBe(true);
    const etag = first.headers.get('etag') ?? '';
    expect((await device.get(path, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    await world.api.patch(`/v1/hosts/${grace.hostId}`, { name: 'Grace Hopper' });
    const renamed = await device.get<KioskHostList>(path, { headers: { 'If-None-Match': etag } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.map((host) => host.name)).toEqual(['Alan', 'Grace Hopper']);
    expect((await device.get(`/v1/sites/${world.otherSiteId}/kiosk/hosts`)).status).toBe(404);
  });

  it('a check-in names a host of its site (else 422) and keeps the name it had, whatever becomes of the host', async () => {
    const { world } = harness;
    const grace = await addHost({ name: 'Grace', siteIds: [world.siteId] });
    const other = await addHost({ name: 'Other', siteIds: [world.otherSiteId] });
    const people = `/v1/sites/${world.siteId}/checkins/people`;
    const created = await world.api.post<PersonCheckin>(people, visitor('Ada', 'L', { hostId: grace.hostId }));
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ hostId: grace.hostId, hostName: 'Grace' });
    const wrong = await world.api.post<{ errors: Array<{ path: string }> }>(
      people,
      visitor('Bo', 'B', { hostId: other.hostId }),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.map((error) => error.path)).toEqual(['hostId']);
    expect((await world.api.post(people, visitor('Bo', 'B', { hostId: 999999 }))).status).toBe(422);
    const plain = await world.api.post<PersonCheckin>(people, visitor('Cy', 'C', { hostName: 'Free text' }));
    expect(plain.body).toMatchObject({ hostId: null, hostName: 'Free text' });

    await world.api.patch(`/v1/hosts/${grace.hostId}`, { name: 'Grace Hopper' });
    await world.api.delete(`/v1/hosts/${grace.hostId}`);
    const read = await world.api.get<PersonCheckin>(`${people}/${created.body.checkinId}`);
    expect(read.body).toMatchObject({ hostId: grace.hostId, hostName: 'Grace' });
  });

  it('a form with a required host field needs a hostId', async () => {
    const { world } = harness;
    const host = await addHost({ name: 'Grace', siteIds: [world.siteId] });
    const config = `/v1/sites/${world.siteId}/checkins/people/config`;
    const put = await world.api.put(config, {
      requiresApproval: false,
      fields: [
        { name: 'firstName', label: 'First name', type: 'text', required: true },
        { name: 'lastName', label: 'Last name', type: 'text', required: true },
        { name: 'hostName', label: 'Who are you visiting?', type: 'host', required: true },
      ],
    });
    expect(put.status, put.text).toBe(200);
    const misnamed = await world.api.put(config, {
      requiresApproval: false,
      fields: [
        { name: 'firstName', label: 'First name', type: 'text', required: true },
        { name: 'lastName', label: 'Last name', type: 'text', required: true },
        { name: 'host', label: 'Host', type: 'host', required: true },
      ],
    });
    expect(misnamed.status).toBe(422);
    const people = `/v1/sites/${world.siteId}/checkins/people`;
    const missing = await world.api.post<{ errors: Array<{ path: string; message: string }> }>(people, visitor());
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ path: 'hostId', message: 'Who are you visiting? is required' }]);
    expect((await world.api.post(people, visitor('Ada', 'L', { hostId: host.hostId }))).status).toBe(201);
  });
});
