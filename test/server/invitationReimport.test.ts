import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../shared/src/schemas/audit';
import type { InvitationImportResult } from '../../shared/src/schemas/invitations';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { type OpenStream, type ReceivedEvent, openEventStream } from '../support/eventStream';
import type { World } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Re-importing an invitation file: a line that changes nothing publishes nothing and audits nothing; a line
// that changes its invitation publishes one event and one invitation.updated (docs/invitations.md, Importing).
const harness = serverAndWorld({ stranger: true, env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' } });

const open: OpenStream[] = [];
afterEach(() => {
  for (const opened of open.splice(0)) opened.close();
});

const importCsv = (world: World, text: string) =>
  world.api.request<InvitationImportResult>('POST', '/v1/invitations/import', {
    rawBody: text,
    headers: { 'Content-Type': 'text/csv' },
  });

const invitationEvents = (events: OpenStream) => events.events.filter((event) => event.event === 'invitation');

/** A check-in after the writes: once its event has arrived, so has anything the writes published. */
async function settled(world: World, events: OpenStream): Promise<void> {
  const marker = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
    person: { firstName: 'Marker', lastName: 'Visit' },
  });
  expect(marker.status, marker.text).toBe(201);
  await events.waitFor(
    (event: ReceivedEvent) => event.event === 'checkin' && event.data.checkinId === marker.body.checkinId,
  );
}

/** The invitation entries of the account's audit log, oldest first, as an owner reads them. */
async function invitationEntries(world: World): Promise<AuditEvent[]> {
  const owner = (await staffClient(harness.server, { accountId: world.accountId, role: 'owner' })).api;
  const page = await owner.get<{ data: AuditEvent[] }>('/v1/audit-events?limit=200');
  expect(page.status, page.text).toBe(200);
  return page.body.data.filter((entry) => entry.action.startsWith('invitation.')).reverse();
}

describe('re-importing an invitation file', () => {
  it('publishes and audits only the lines that change an invitation', async () => {
    const { world, stranger } = harness;
    const events = await openEventStream(harness.server.baseUrl, { token: world.token });
    open.push(events);
    await events.waitFor((event) => event.event === 'reset');
    const expectedAt = new Date(Date.now() + 86_400_000);
    expectedAt.setUTCSeconds(0, 0);
    const file = (adaPurpose: string) =>
      [
        'site,firstName,lastName,email,phone,company,host,purpose,expectedAt',
        `${world.siteId},Ada,Lovelace,ada@example.com,+44 20 7946 0000,ACME,,${adaPurpose},${expectedAt.toISOString()}`,
        `${world.siteId},Alan,Turing,,,,,Interview,${expectedAt.toISOString()}`,
        '',
      ].join('\n');

    const first = await importCsv(world, file('Meeting'));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ created: 2, updated: 0, errors: [] });
    await events.waitFor(() => invitationEvents(events).length >= 2);
    await settled(world, events);
    const created = invitationEvents(events).map((event) => Number(event.data.invitationId));
    expect(created).toHaveLength(2);
    expect((await invitationEntries(world)).map((entry) => [entry.action, entry.target.id, entry.siteId])).toEqual(
      created.map((id) => ['invitation.created', id, world.siteId]),
    );

    // The same file again: every line matches its invitation as it is.
    const again = await importCsv(world, file('Meeting'));
    expect(again.body).toEqual({ created: 0, updated: 2, errors: [] });
    await settled(world, events);
    expect(invitationEvents(events)).toHaveLength(2);
    expect(await invitationEntries(world)).toHaveLength(2);

    // One line changed: one event and one audit entry, of that invitation.
    const changed = await importCsv(world, file('Board meeting'));
    expect(changed.body).toEqual({ created: 0, updated: 2, errors: [] });
    await settled(world, events);
    expect(
      invitationEvents(events)
        .slice(2)
        .map((event) => event.data.invitationId),
    ).toEqual([created[0]]);
    expect((await invitationEntries(world)).slice(2).map((entry) => [entry.action, entry.target.id])).toEqual([
      ['invitation.updated', created[0]],
    ]);

    // Another account's log shows none of it.
    expect(await invitationEntries(stranger)).toEqual([]);
  });
});
