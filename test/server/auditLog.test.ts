import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../shared/src/schemas/audit';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { TEST_ADMIN_TOKEN } from '../support/testServer';
import { arrive, createVehicleLabel, registerVehicle, uniquePlate, visit } from '../support/vehicles';

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, worldPerTest: true });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
type Page = { data: AuditEvent[]; nextCursor: string | null };

/** The account's audit rows, oldest first, as [action, target id]. */
async function auditRows(
  accountId: number,
): Promise<Array<{ action: string; target_id: number; request_id: string | null; actor_type: string }>> {
  return queryRows(
    harness.server.database,
    sql`SELECT action, target_id, request_id, actor_type FROM audit_events WHERE account_id = ${accountId} ORDER BY id`,
  );
}

describe('the audit log', () => {
  it('records every audited write once, with its actor and request id; kiosk-style token writes are not audited', async () => {
    const { world } = harness;
    const owner = await staffClient(harness.server, { accountId: world.accountId, role: 'owner' });
    const api = owner.api;
    const site = people(world.siteId);
    const expected: string[] = [];
    const check = async (response: { status: number; headers: Headers }, action: string) => {
      expect(response.status, action).toBeLessThan(300);
      expected.push(action);
      const rows = await auditRows(world.accountId);
      expect(rows.at(-1)?.action).toBe(action);
      expect(rows.at(-1)?.request_id).toBe(response.headers.get('x-request-id'));
    };
    await check(
      await api.put(`${site}/config`, { requiresApproval: true, fields: defaultCheckinConfig.fields }),
      'site.config_updated',
    );
    const created = await api.post<PersonCheckin>(site, visitor());
    await check(created, 'checkin.created');
    // The owner's own walk-in is decided as it is made (IN); a token's (unaudited) waits for the owner.
    const waiting = await world.api.post<PersonCheckin>(site, visitor());
    await check(await api.post(`${site}/${waiting.body.checkinId}/approve`), 'checkin.approved');
    await check(await api.post(`${site}/${created.body.checkinId}/checkout`), 'checkin.checked_out');
    const other = await world.api.post<PersonCheckin>(site, visitor());
    await check(await api.post(`${site}/${other.body.checkinId}/deny`, { reason: 'No' }), 'checkin.denied');
    const label = await api.post<{ labelId: number }>('/v1/labels/people', { name: 'VIP' });
    await check(label, 'person_label.created');
    await check(
      await api.patch(`/v1/labels/people/${label.body.labelId}`, { name: 'VIP guest' }),
      'person_label.updated',
    );
    await check(await api.delete(`/v1/labels/people/${label.body.labelId}`), 'person_label.deleted');
    const entry = await api.post<{ entryId: number }>('/v1/watchlist/people', { email: 'audit@example.com' });
    await check(entry, 'watchlist_entry.created');
    await check(
      await api.patch(`/v1/watchlist/people/${entry.body.entryId}`, { reason: 'Seen again' }),
      'watchlist_entry.updated',
    );
    await check(await api.delete(`/v1/watchlist/people/${entry.body.entryId}`), 'watchlist_entry.deleted');
    const vehicleLabel = await api.post<{ labelId: number }>('/v1/labels/vehicles', { name: 'Fleet' });
    await check(vehicleLabel, 'vehicle_label.created');
    const vehicle = await api.post<{ vehicleId: number }>('/v1/profiles/vehicles', { licensePlate: uniquePlate() });
    await check(vehicle, 'vehicle.created');
    await check(
      await api.put(`/v1/profiles/vehicles/${vehicle.body.vehicleId}/labels`, {
        labelIds: [vehicleLabel.body.labelId],
      }),
      'vehicle.labels_set',
    );
    await check(await api.delete(`/v1/profiles/vehicles/${vehicle.body.vehicleId}`), 'vehicle.deleted');
    const pending = await arrive(api, world.siteId, { licensePlate: uniquePlate() });
    expected.push('vehicle_checkin.created');
    await check(await api.post(`${visit(pending)}/approve`), 'vehicle_checkin.approved');
    await check(await api.post(`${visit(pending)}/checkout`), 'vehicle_checkin.checked_out');
    const invited = await api.post<{ user: { userId: number } }>('/v1/users', {
      email: `a${Date.now()}@example.com`,
      name: 'Ann',
      role: 'reception',
      allSites: true,
    });
    await check(invited, 'user.created');
    await check(await api.patch(`/v1/users/${invited.body.user.userId}`, { role: 'security' }), 'user.updated');
    await check(await api.post(`/v1/users/${invited.body.user.userId}/password-reset`), 'user.password_reset');
    // A token's kiosk-style entry and checkout are not manual: not audited; its approvals are.
    await api.put(`${site}/config`, { requiresApproval: false, fields: defaultCheckinConfig.fields });
    expected.push('site.config_updated');
    const byToken = await world.api.post<PersonCheckin>(site, visitor());
    await world.api.post(`${site}/${byToken.body.checkinId}/checkout`);
    await world.api.post(`${site}/${byToken.body.checkinId}/breaks/start`);
    const rows = await auditRows(world.accountId);
    expect(rows.map((row) => row.action)).toEqual(expected);
    const listed = await api.get<Page>('/v1/audit-events?limit=200');
    expect(listed.body.data.map((event) => event.action)).toEqual([...expected].reverse());
    expect(listed.body.data[0]).toMatchObject({
      actor: { type: 'user', id: owner.member.userId },
      target: { type: 'site', id: world.siteId },
      siteId: world.siteId,
    });
  });

  it('a failed change leaves no audit row (409, 422, LAST_OWNER)', async () => {
    const { world } = harness;
    const owner = await staffClient(harness.server, { accountId: world.accountId, role: 'owner' });
    const created = await owner.api.post<PersonCheckin>(people(world.siteId), visitor());
    const before = (await auditRows(world.accountId)).length;
    expect((await owner.api.post<Problem>(`${people(world.siteId)}/${created.body.checkinId}/approve`)).body.code).toBe(
      'NOT_PENDING',
    );
    expect((await owner.api.patch<Problem>(`/v1/users/${owner.member.userId}`, { disabled: true })).body.code).toBe(
      'LAST_OWNER',
    );
    await owner.api.post('/v1/labels/people', { name: 'Twice' });
    expect((await owner.api.post<Problem>('/v1/labels/people', { name: 'twice' })).status).toBe(409);
    expect((await owner.api.post<Problem>('/v1/profiles/vehicles', { licensePlate: '' })).status).toBe(422);
    expect((await auditRows(world.accountId)).map((row) => row.action).slice(before)).toEqual(['person_label.created']);
  });

  it('racing approvals of one check-in: one succeeds, and the log has its one record', async () => {
    const { world } = harness;
    const owner = await staffClient(harness.server, { accountId: world.accountId, role: 'owner' });
    await owner.api.put(`${people(world.siteId)}/config`, {
      requiresApproval: true,
      fields: defaultCheckinConfig.fields,
    });
    // Made by a token: the owner's own would be decided as it is made.
    const pending = await world.api.post<PersonCheckin>(people(world.siteId), visitor());
    const approvers = await Promise.all(
      [1, 2, 3].map(() => staffClient(harness.server, { accountId: world.accountId, role: 'reception' })),
    );
    const answers = await Promise.all(
      approvers.map(({ api }) => api.post(`${people(world.siteId)}/${pending.body.checkinId}/approve`)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    const approvals = (await auditRows(world.accountId)).filter((row) => row.action === 'checkin.approved');
    expect(approvals).toHaveLength(1);
    expect(approvals[0]?.request_id).toBe(answers.find((answer) => answer.status === 200)?.headers.get('x-request-id'));
  });

  it('a password change and a redeemed link are the user’s own records', async () => {
    const { world } = harness;
    const owner = await staffClient(harness.server, { accountId: world.accountId, role: 'owner' });
    expect(
      (
        await owner.api.put('/v1/session/password', {
          currentPassword: owner.member.password,
          newPassword: 'another fine passphrase',
        })
      ).status,
    ).toBe(204);
    const rows = await auditRows(world.accountId);
    expect(rows.map((row) => [row.action, row.target_id, row.actor_type])).toEqual([
      ['user.password_changed', owner.member.userId, 'user'],
    ]);
  });

  it('is append-only: the database refuses UPDATE and DELETE', async () => {
    const owner = await staffClient(harness.server, { accountId: harness.world.accountId, role: 'owner' });
    await owner.api.post('/v1/labels/people', { name: 'Kept' });
    await expect(
      queryRows(
        harness.server.database,
        sql`UPDATE audit_events SET action = 'x' WHERE account_id = ${harness.world.accountId}`,
      ),
    ).rejects.toThrow(/append-only/);
    await expect(
      queryRows(harness.server.database, sql`DELETE FROM audit_events WHERE account_id = ${harness.world.accountId}`),
    ).rejects.toThrow(/append-only/);
  });

  it('a manager reads only their sites’ events; filters and pages newest first', async () => {
    const { world } = harness;
    const owner = await staffClient(harness.server, { accountId: world.accountId, role: 'owner' });
    for (const siteId of [world.siteId, world.otherSiteId, world.siteId]) {
      expect((await owner.api.post(people(siteId), visitor())).status).toBe(201);
    }
    await owner.api.post('/v1/labels/people', { name: 'Account-wide' });
    const manager = await staffClient(harness.server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.siteId],
    });
    const seen = await manager.api.get<Page>('/v1/audit-events');
    expect(seen.body.data.map((event) => [event.action, event.siteId])).toEqual([
      ['checkin.created', world.siteId],
      ['checkin.created', world.siteId],
    ]);
    expect((await manager.api.get(`/v1/audit-events?siteIds=${world.otherSiteId}`)).status).toBe(404);
    const first = await owner.api.get<Page>('/v1/audit-events?limit=2&actorType=user');
    expect(first.body.data).toHaveLength(2);
    const second = await owner.api.get<Page>(`/v1/audit-events?limit=2&actorType=user&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((event) => event.auditId)).toEqual(
      (await owner.api.get<Page>('/v1/audit-events?limit=4&actorType=user')).body.data
        .slice(2)
        .map((event) => event.auditId),
    );
    const byAction = await owner.api.get<Page>('/v1/audit-events?action=person_label.created');
    expect(byAction.body.data.map((event) => event.action)).toEqual(['person_label.created']);
    expect((await owner.api.get('/v1/audit-events?actorType=robot')).status).toBe(400);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await owner.api.get<Page>(`/v1/audit-events?from=${encodeURIComponent(future)}`)).body.data).toEqual([]);
  });
});

describe('vehicle labels via the API are audited too', () => {
  it('vehicle_label.updated and .deleted', async () => {
    const owner = await staffClient(harness.server, { accountId: harness.world.accountId, role: 'owner' });
    const label = await createVehicleLabel(owner.api);
    await owner.api.patch(`/v1/labels/vehicles/${label.labelId}`, { name: `${label.name} 2` });
    await owner.api.delete(`/v1/labels/vehicles/${label.labelId}`);
    const vehicle = await registerVehicle(owner.api, { licensePlate: uniquePlate() });
    await owner.api.put(`/v1/profiles/vehicles/${vehicle.vehicleId}`, { licensePlate: uniquePlate() });
    const actions = (await auditRows(harness.world.accountId)).map((row) => row.action);
    expect(actions).toEqual([
      'vehicle_label.created',
      'vehicle_label.updated',
      'vehicle_label.deleted',
      'vehicle.created',
      'vehicle.updated',
    ]);
  });
});

describe('the management API in the audit log', () => {
  it('records each operator write under the account it changed, as the operator, never the token', async () => {
    const admin = apiClient(harness.server.baseUrl, TEST_ADMIN_TOKEN);
    const account = await admin.post<{ accountId: number }>('/v1/admin/accounts', { name: 'Operator Co' });
    const { accountId } = account.body;
    const site = await admin.post<{ siteId: number }>(`/v1/admin/accounts/${accountId}/sites`, { name: 'Yard' });
    const token = await admin.post<{ tokenId: number; token: string }>(`/v1/admin/accounts/${accountId}/tokens`, {
      name: 'Script',
      allSites: true,
    });
    expect((await admin.patch(`/v1/admin/tokens/${token.body.tokenId}`, { scopes: ['checkins:read'] })).status).toBe(
      200,
    );
    const user = await admin.post<{ user: { userId: number } }>(`/v1/admin/accounts/${accountId}/users`, {
      email: `operator.made.${Date.now()}@example.com`,
      name: 'Otto Owner',
      role: 'owner',
      allSites: true,
    });
    expect((await admin.delete(`/v1/admin/tokens/${token.body.tokenId}`)).status).toBe(204);
    // A refused operator write leaves nothing.
    expect((await admin.delete(`/v1/admin/tokens/${token.body.tokenId}`)).status).toBe(404);

    const rows = await auditRows(accountId);
    expect(rows.map((row) => [row.action, Number(row.target_id), row.actor_type])).toEqual([
      ['account.create', accountId, 'operator'],
      ['site.create', site.body.siteId, 'operator'],
      ['token.create', token.body.tokenId, 'operator'],
      ['token.update', token.body.tokenId, 'operator'],
      ['user.created', user.body.user.userId, 'operator'],
      ['token.revoke', token.body.tokenId, 'operator'],
    ]);
    const raw = await queryRows(
      harness.server.database,
      sql`SELECT to_jsonb(a) AS row FROM audit_events a WHERE account_id = ${accountId}`,
    );
    expect(JSON.stringify(raw)).not.toContain(token.body.token);
    expect(rows.every((row) => row.request_id !== null)).toBe(true);

    // The account's owner reads them, filtered by who; another account sees none of them.
    const owner = await staffClient(harness.server, { accountId, role: 'owner' });
    const page = await owner.api.get<Page>('/v1/audit-events?actorType=operator');
    expect(page.body.data.map((event) => event.actor)).toContainEqual({
      type: 'operator',
      id: 0,
      name: 'Management API',
    });
    expect(page.body.data).toHaveLength(6);
    const stranger = await staffClient(harness.server, { accountId: harness.world.accountId, role: 'owner' });
    expect((await stranger.api.get<Page>('/v1/audit-events?actorType=operator')).body.data).toEqual([]);
  });
});
