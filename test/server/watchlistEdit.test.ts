import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { WatchlistEntry } from '../../shared/src/schemas/watchlist';
import { buildToken, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';

const harness = serverAndWorld({ stranger: true });
const WATCHLIST = '/v1/watchlist/people';

async function addEntry(body: Record<string, string>, api: ApiClient = harness.world.api): Promise<WatchlistEntry> {
  const response = await api.post<WatchlistEntry>(WATCHLIST, body);
  expect(response.status).toBe(201);
  return response.body;
}

async function checkIn(person: Record<string, unknown>): Promise<PersonCheckin> {
  const response = await harness.world.api.post<PersonCheckin>(
    `/v1/sites/${harness.world.siteId}/checkins/people`,
    person,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('PATCH /v1/watchlist/people/{entryId}', () => {
  it('changes only the fields sent, clears with null, and matches check-ins against the entry as it now reads', async () => {
    const entry = await addEntry({ email: 'old@example.com', firstName: 'Mal', lastName: 'Lory', reason: 'Trespass' });
    const digest = `/v1/sites/${harness.world.siteId}/kiosk/watchlist-digest`;
    const before = (await harness.world.api.get(digest)).headers.get('etag');
    const changed = await harness.world.api.patch<WatchlistEntry>(`${WATCHLIST}/${entry.entryId}`, {
      email: 'NEW@example.com',
      reason: null,
    });
    // Kiosks see the change at their next digest pull.
    expect((await harness.world.api.get(digest)).headers.get('etag')).not.toBe(before);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ...entry, email: 'NEW@example.com', reason: null });
    const listed = await harness.world.api.get<{ data: WatchlistEntry[] }>(`${WATCHLIST}?limit=200`);
    expect(listed.body.data).toContainEqual(changed.body);

    expect((await checkIn({ person: { firstName: 'Some', lastName: 'One', email: 'old@example.com' } })).status).toBe(
      'IN',
    );
    expect((await checkIn({ person: { firstName: 'Some', lastName: 'One', email: 'new@EXAMPLE.com' } })).status).toBe(
      'STOP',
    );
    const renamed = await harness.world.api.patch<WatchlistEntry>(`${WATCHLIST}/${entry.entryId}`, {
      firstName: 'Eve',
    });
    expect(renamed.body).toMatchObject({ firstName: 'Eve', lastName: 'Lory', email: 'NEW@example.com' });
    expect((await checkIn(visitor('Mal', 'Lory'))).status).toBe('IN');
    expect((await checkIn(visitor('eve', 'lory'))).status).toBe('STOP');
  });

  it('refuses a change that leaves no identifier, or a bad field, with 422 and changes nothing', async () => {
    const entry = await addEntry({ email: 'only@example.com', firstName: 'Only' });
    for (const body of [
      { email: null },
      { email: 'not-an-email' },
      { phone: '---' },
      { extra: 1 },
      { lastName: '  ' },
    ]) {
      const response = await harness.world.api.patch<Problem>(`${WATCHLIST}/${entry.entryId}`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    const listed = await harness.world.api.get<{ data: WatchlistEntry[] }>(`${WATCHLIST}?limit=200`);
    expect(listed.body.data).toContainEqual(entry);
    // Giving a full name first lets the email go.
    const swapped = await harness.world.api.patch<WatchlistEntry>(`${WATCHLIST}/${entry.entryId}`, {
      lastName: 'Entry',
      email: null,
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body).toMatchObject({ email: null, firstName: 'Only', lastName: 'Entry' });
  });

  it('needs watchlist:manage, and never reaches another account’s entry (404)', async () => {
    const entry = await addEntry({ phone: '+1 555 0142' });
    const clerk = await buildToken(harness.server, {
      accountId: harness.world.accountId,
      scopes: ['checkins:read', 'checkins:write', 'checkins:approve'],
    });
    const refused = await apiClient(harness.server.baseUrl, clerk.token).patch<Problem>(
      `${WATCHLIST}/${entry.entryId}`,
      { reason: 'x' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');

    const theirs = await addEntry({ email: 'theirs@example.com' }, harness.stranger.api);
    const across = await harness.world.api.patch<Problem>(`${WATCHLIST}/${theirs.entryId}`, { reason: 'Not mine' });
    expect(across.status).toBe(404);
    expect(across.body.code).toBe('NOT_FOUND');
    const kept = await harness.stranger.api.get<{ data: WatchlistEntry[] }>(`${WATCHLIST}?limit=200`);
    expect(kept.body.data).toContainEqual(theirs);
    expect((await harness.world.api.patch<Problem>(`${WATCHLIST}/999999999`, { reason: 'Nobody' })).status).toBe(404);
  });
});
