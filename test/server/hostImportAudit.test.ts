import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../shared/src/schemas/audit';
import type { Host, HostImportResult } from '../../shared/src/schemas/hosts';
import type { World } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// A host import is audited as the single writes are: one host.created or host.updated per line written, in
// the import's transaction; a line that changes nothing, or fails, writes none (docs/notifications.md).
const harness = serverAndWorld({ stranger: true });
type Page = { data: AuditEvent[]; nextCursor: string | null };

const importCsv = (world: World, text: string) =>
  world.api.request<HostImportResult>('POST', '/v1/hosts/import', {
    rawBody: text,
    headers: { 'Content-Type': 'text/csv' },
  });

/** The host entries of the account's audit log, oldest first, as an owner reads them. */
async function hostEntries(world: World): Promise<AuditEvent[]> {
  const owner = (await staffClient(harness.server, { accountId: world.accountId, role: 'owner' })).api;
  const page = await owner.get<Page>('/v1/audit-events?limit=200');
  expect(page.status, page.text).toBe(200);
  return page.body.data.filter((entry) => entry.action.startsWith('host.')).reverse();
}

describe('a host import in the audit log', () => {
  it('lists each line written, by whom, and nothing for lines unchanged or refused', async () => {
    const { world, stranger } = harness;
    const file = (phone: string) =>
      [
        'name,email,phone,sites',
        `Grace Hopper,grace@example.com,${phone},${world.siteId}`,
        `Alan Turing,alan@example.com,,${world.siteId}`,
        'No Email,,,1',
        '',
      ].join('\r\n');
    const first = await importCsv(world, file('+44 20 7946 0000'));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ created: 2, updated: 0 });
    const hosts = (await world.api.get<{ data: Host[] }>('/v1/hosts')).body.data;
    const idOf = (email: string) => hosts.find((host) => host.email === email)?.hostId;
    const created = await hostEntries(world);
    expect(created.map((entry) => [entry.action, entry.target])).toEqual([
      ['host.created', { type: 'host', id: idOf('grace@example.com') }],
      ['host.created', { type: 'host', id: idOf('alan@example.com') }],
    ]);
    expect(created[0]?.actor.type).toBe('token');
    expect(created[0]?.requestId).toBeTruthy();
    expect(created[0]?.requestId).toBe(created[1]?.requestId);

    // The same file again changes nothing, so says nothing; a changed phone is one update.
    expect((await importCsv(world, file('+44 20 7946 0000'))).body).toMatchObject({ created: 0, updated: 2 });
    expect(await hostEntries(world)).toHaveLength(2);
    expect((await importCsv(world, file('+44 20 7946 0001'))).body).toMatchObject({ created: 0, updated: 2 });
    const after = await hostEntries(world);
    expect(after.slice(2).map((entry) => [entry.action, entry.target.id])).toEqual([
      ['host.updated', idOf('grace@example.com')],
    ]);

    // Another account's log shows none of it.
    expect(await hostEntries(stranger)).toEqual([]);
  });
});
