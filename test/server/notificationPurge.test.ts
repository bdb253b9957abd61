import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../shared/src/schemas/hosts';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { hashDecisionToken } from '../../server/src/notifications/decisionLinks';
import { purgeNotifications } from '../../server/src/notifications/purge';
import { type World, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { invite, passOf } from '../support/invitations';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Notifications and Approve/Deny links are purged (docs/privacy.md, What is kept): finished notifications
// after NOTIFICATION_LOG_RETENTION_DAYS or the account's shorter retention of visits, links once spent.
const harness = serverAndWorld({ stranger: true });
const DAY = 86_400_000;
const DAYS = 30;
const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

/** A host's notification of a visit, made `age` days ago, in `status`; its id. */
async function notification(world: World, age: number, status: 'sent' | 'failed' | 'pending'): Promise<number> {
  const made = daysAgo(age);
  const [row] = await queryRows<{ id: number }>(
    harness.server.database,
    sql`INSERT INTO notifications (account_id, site_id, checkin_id, host_id, event, channel, recipient, language,
          event_at, status, next_attempt_at, give_up_at, sent_at, created_at)
        VALUES (${world.accountId}, ${world.siteId}, ${Math.floor(Math.random() * 1e9)}, 1, 'arrived', 'email',
          'host@example.com', 'en', ${made}, ${status}, ${status === 'pending' ? made : null}::timestamptz,
          ${new Date(made.getTime() + DAY)}, ${status === 'sent' ? made : null}::timestamptz, ${made})
        RETURNING id`,
  );
  return row?.id ?? 0;
}

/** A decision link of the visit; its secret. */
async function link(
  world: World,
  input: { checkinId: number; hostId: number; expiresAt: Date; used?: boolean },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await queryRows(
    harness.server.database,
    sql`INSERT INTO host_decision_links (token_hash, account_id, site_id, checkin_id, host_id, action, expires_at, used_at, created_at)
        VALUES (${hashDecisionToken(token)}, ${world.accountId}, ${world.siteId}, ${input.checkinId}, ${input.hostId},
          'approve', ${input.expiresAt}, ${input.used ? now : null}::timestamptz, ${now})`,
  );
  return token;
}

const remaining = async (world: World, ids: number[]) =>
  (
    await queryRows<{ id: number }>(
      harness.server.database,
      sql`SELECT id FROM notifications WHERE account_id = ${world.accountId} AND id = ANY (${ids}::bigint[]) ORDER BY id`,
    )
  ).map((row) => row.id);

const linksOf = async (world: World) =>
  (
    await queryRows<{ n: number }>(
      harness.server.database,
      sql`SELECT count(*)::int AS n FROM host_decision_links WHERE account_id = ${world.accountId}`,
    )
  )[0]?.n;

/** A waiting visit of a host of the world's site. */
async function waitingVisit(world: World): Promise<{ host: Host; checkin: PersonCheckin }> {
  const config = `/v1/sites/${world.siteId}/checkins/people/config`;
  const current = await world.api.get<{ fields: unknown[] }>(config);
  expect((await world.api.put(config, { requiresApproval: true, fields: current.body.fields })).status).toBe(200);
  const host = await world.api.post<Host>('/v1/hosts', { name: 'Grace Hopper', siteIds: [world.siteId], notifyBy: [] });
  expect(host.status, host.text).toBe(201);
  const checkin = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
    ...visitor(),
    hostId: host.body.hostId,
  });
  expect(checkin.body.status).toBe('PENDING');
  return { host: host.body, checkin: checkin.body };
}

describe('the notification purge', () => {
  it('deletes finished notifications older than the period, keeps newer and pending ones', async () => {
    const { world } = harness;
    const old = [await notification(world, DAYS + 1, 'sent'), await notification(world, DAYS + 5, 'failed')];
    const kept = [await notification(world, DAYS - 1, 'sent'), await notification(world, 1, 'failed')];
    const leased = await notification(world, DAYS + 1, 'pending');
    const stranger = await notification(harness.stranger, DAYS - 1, 'sent');

    const purged = await purgeNotifications(harness.server.database, { now, days: DAYS });
    expect(purged.notifications).toBeGreaterThanOrEqual(2);
    expect(await remaining(world, [...old, ...kept, leased])).toEqual([...kept, leased].sort((a, b) => a - b));
    expect(await remaining(harness.stranger, [stranger])).toEqual([stranger]);
  });

  it("follows an account's shorter retention of visits, and only that account's", async () => {
    const { world, stranger } = harness;
    await queryRows(
      harness.server.database,
      sql`UPDATE accounts SET person_data_days = 3 WHERE id = ${world.accountId}`,
    );
    try {
      const mine = [await notification(world, 4, 'sent'), await notification(world, 2, 'sent')];
      const theirs = await notification(stranger, 4, 'sent');
      await purgeNotifications(harness.server.database, { now, days: DAYS });
      expect(await remaining(world, mine)).toEqual([mine[1]]);
      expect(await remaining(stranger, [theirs])).toEqual([theirs]);
    } finally {
      await queryRows(
        harness.server.database,
        sql`UPDATE accounts SET person_data_days = NULL WHERE id = ${world.accountId}`,
      );
    }
  });

  it('refuses a used or expired decision link, and deletes it; a live one, of any account, stays', async () => {
    const { world, stranger } = harness;
    const mine = await waitingVisit(world);
    const theirs = await waitingVisit(stranger);
    const input = { checkinId: mine.checkin.checkinId, hostId: mine.host.hostId };
    const expired = await link(world, { ...input, expiresAt: new Date(now.getTime() - 1000) });
    const used = await link(world, { ...input, expiresAt: new Date(now.getTime() + DAY), used: true });
    const live = await link(world, { ...input, expiresAt: new Date(now.getTime() + DAY) });
    await link(stranger, {
      checkinId: theirs.checkin.checkinId,
      hostId: theirs.host.hostId,
      expiresAt: new Date(now.getTime() + DAY),
    });
    const anyone = apiClient(harness.server.baseUrl);
    for (const token of [expired, used])
      expect((await anyone.post('/v1/host-decisions/preview', { token })).status).toBe(404);
    expect((await anyone.post('/v1/host-decisions/preview', { token: live })).status).toBe(200);

    const purged = await purgeNotifications(harness.server.database, { now: new Date(), days: DAYS });
    expect(purged.links).toBeGreaterThanOrEqual(2);
    expect(await linksOf(world)).toBe(1);
    expect(await linksOf(stranger)).toBe(1);
    expect((await anyone.post('/v1/host-decisions/preview', { token: live })).status).toBe(200);
  });

  it('purges in batches until nothing is left', async () => {
    const { world } = harness;
    const old = [];
    for (let i = 0; i < 5; i++) old.push(await notification(world, DAYS + 2, 'sent'));
    await purgeNotifications(harness.server.database, { now, days: DAYS, batch: 2 });
    expect(await remaining(world, old)).toEqual([]);
  });
});

describe('an erasure and the notifications', () => {
  it("clears the visitor's address from the pass email of the visit's invitation, and no other", async () => {
    const { world, stranger } = harness;
    const person = { firstName: 'Ottilie', lastName: 'Erasable', email: 'ottilie.erasable@example.com' };
    const invited = await invite(world.api, world.siteId, { person });
    const kept = await invite(world.api, world.siteId, {
      person: { firstName: 'Kept', lastName: 'Visitor', email: 'kept.visitor@example.com' },
    });
    const theirs = await invite(stranger.api, stranger.siteId, { person });
    const pass = await passOf(world.api, invited.invitationId);
    const arrived = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: {},
      pass: pass.token,
    });
    expect(arrived.status, arrived.text).toBe(201);
    const recipients = async (invitationIds: number[]) =>
      (
        await queryRows<{ recipient: string; status: string }>(
          harness.server.database,
          sql`SELECT recipient, status FROM notifications WHERE invitation_id = ANY (${invitationIds}::bigint[])
              ORDER BY invitation_id, id`,
        )
      ).map((row) => row.recipient);
    expect(await recipients([invited.invitationId])).toEqual([person.email]);

    const owner = (await staffClient(harness.server, { accountId: world.accountId, role: 'owner' })).api;
    const erased = await owner.post<{ anonymized: number }>('/v1/privacy/erasure', {
      firstName: person.firstName,
      lastName: person.lastName,
    });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.anonymized).toBe(1);
    expect(await recipients([invited.invitationId])).toEqual(['']);
    const [cleared] = await queryRows<{ status: string }>(
      harness.server.database,
      sql`SELECT status FROM notifications WHERE invitation_id = ${invited.invitationId}`,
    );
    expect(cleared?.status).not.toBe('pending');
    expect(await recipients([kept.invitationId])).toEqual(['kept.visitor@example.com']);
    expect(await recipients([theirs.invitationId])).toEqual([person.email]);
  });
});
