import { describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/src/schemas/admin';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonLabel } from '../../shared/src/schemas/labels';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { CheckinConfig } from '../../shared/src/schemas/sites';
import type { WatchlistEntry } from '../../shared/src/schemas/watchlist';
import { buildSite, buildToken, buildWorld, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';

interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

const harness = serverAndWorld({ stranger: true });

const LABELS = '/v1/labels/people';
const WATCHLIST = '/v1/watchlist/people';
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
let counter = 0;
const uniqueName = (prefix: string) => `${prefix} ${++counter}`;

function expectProblem(response: { status: number; headers: Headers; body: Problem }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(response.body.code).toBe(code);
}

async function createLabel(
  body: { name: string; color?: string },
  api: ApiClient = harness.world.api,
): Promise<PersonLabel> {
  const response = await api.post<PersonLabel>(LABELS, body);
  expect(response.status).toBe(201);
  return response.body;
}

async function checkIn(
  body: unknown,
  siteId = harness.world.siteId,
  api: ApiClient = harness.world.api,
): Promise<PersonCheckin> {
  const response = await api.post<PersonCheckin>(people(siteId), body);
  expect(response.status).toBe(201);
  return response.body;
}

async function readCheckin(checkin: PersonCheckin, api: ApiClient = harness.world.api): Promise<PersonCheckin> {
  const response = await api.get<PersonCheckin>(`${people(checkin.siteId)}/${checkin.checkinId}`);
  expect(response.status).toBe(200);
  return response.body;
}

/** A client for the world's account with exactly these scopes. */
async function clientWith(scopes: Scope[]): Promise<ApiClient> {
  const token = await buildToken(harness.server, { accountId: harness.world.accountId, scopes });
  return apiClient(harness.server.baseUrl, token.token);
}

describe('person labels', () => {
  it('creates (201), reads (200), lists, renames, recolors and deletes (204) a label', async () => {
    const name = uniqueName('VIP');
    const created = await createLabel({ name, color: '#1a2B3c' });
    expect(created).toMatchObject({ labelId: expect.any(Number), name, color: '#1a2B3c' });
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const read = await harness.world.api.get<PersonLabel>(`${LABELS}/${created.labelId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const list = await harness.world.api.get<Page<PersonLabel>>(`${LABELS}?limit=200`);
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(created);

    const renamed = await harness.world.api.patch<PersonLabel>(`${LABELS}/${created.labelId}`, {
      name: `${name} Gold`,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ labelId: created.labelId, name: `${name} Gold`, color: '#1a2B3c' });

    const recolored = await harness.world.api.patch<PersonLabel>(`${LABELS}/${created.labelId}`, { color: '#ffffff' });
    expect(recolored.body).toMatchObject({ name: `${name} Gold`, color: '#ffffff' });

    const gone = await harness.world.api.delete(`${LABELS}/${created.labelId}`);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    const after = await harness.world.api.get<Problem>(`${LABELS}/${created.labelId}`);
    expectProblem(after, 404, 'NOT_FOUND');
    const again = await harness.world.api.delete<Problem>(`${LABELS}/${created.labelId}`);
    expectProblem(again, 404, 'NOT_FOUND');
  });

  it('creates a label without a color (null)', async () => {
    const created = await createLabel({ name: uniqueName('Plain') });
    expect(created.color).toBeNull();
  });

  it('clears the color with PATCH color: null and leaves it when color is not sent', async () => {
    const created = await createLabel({ name: uniqueName('Colored'), color: '#00ff00' });
    const kept = await harness.world.api.patch<PersonLabel>(`${LABELS}/${created.labelId}`, {
      name: uniqueName('Still colored'),
    });
    expect(kept.body.color).toBe('#00ff00');
    const cleared = await harness.world.api.patch<PersonLabel>(`${LABELS}/${created.labelId}`, { color: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.color).toBeNull();
    expect(cleared.body.name).toBe(kept.body.name);
    expect((await harness.world.api.get<PersonLabel>(`${LABELS}/${created.labelId}`)).body.color).toBeNull();
  });

  it('refuses a color that is not #rrggbb with 422 VALIDATION_FAILED naming color', async () => {
    for (const color of ['red', '#12345', '#1234567', '123456', '#gggggg']) {
      const response = await harness.world.api.post<Problem>(LABELS, { name: uniqueName('Bad color'), color });
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(response.body.errors?.map((error) => error.path)).toContain('color');
    }
    const label = await createLabel({ name: uniqueName('Fine') });
    const patch = await harness.world.api.patch<Problem>(`${LABELS}/${label.labelId}`, { color: 'blue' });
    expectProblem(patch, 422, 'VALIDATION_FAILED');
    expect(patch.body.errors?.map((error) => error.path)).toContain('color');
  });

  it('refuses other invalid bodies with 422 VALIDATION_FAILED', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(65) }, { name: 'Ok', extra: true }]) {
      const response = await harness.world.api.post<Problem>(LABELS, body);
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(response.body.errors?.length).toBeGreaterThan(0);
    }
  });

  it('refuses a duplicate name, case-insensitively, with 409 LABEL_NAME_TAKEN and the label as current', async () => {
    const name = uniqueName('Contractor');
    const first = await createLabel({ name });
    for (const duplicate of [name, name.toUpperCase(), name.toLowerCase()]) {
      const response = await harness.world.api.post<Problem>(LABELS, { name: duplicate, color: '#000000' });
      expectProblem(response, 409, 'LABEL_NAME_TAKEN');
      expect(response.body.current).toEqual(first);
    }

    const second = await createLabel({ name: uniqueName('Visitor') });
    const rename = await harness.world.api.patch<Problem>(`${LABELS}/${second.labelId}`, { name: name.toUpperCase() });
    expectProblem(rename, 409, 'LABEL_NAME_TAKEN');
    expect(rename.body.current).toEqual(first);
    expect((await harness.world.api.get<PersonLabel>(`${LABELS}/${second.labelId}`)).body.name).toBe(second.name);

    // Changing only the case of a label's own name is no conflict.
    const recased = await harness.world.api.patch<PersonLabel>(`${LABELS}/${first.labelId}`, {
      name: name.toUpperCase(),
    });
    expect(recased.status).toBe(200);
    expect(recased.body.name).toBe(name.toUpperCase());
  });

  it('answers racing creates and renames to one name with one success and 409s, never a 500', async () => {
    for (let round = 0; round < 3; round += 1) {
      const labels: PersonLabel[] = [];
      for (let index = 0; index < 4; index += 1) labels.push(await createLabel({ name: uniqueName('Racer') }));
      const name = uniqueName('Contested');
      const responses = await Promise.all([
        ...labels.map((label, index) =>
          harness.world.api.patch<PersonLabel | Problem>(`${LABELS}/${label.labelId}`, {
            name: index % 2 ? name.toUpperCase() : name,
          }),
        ),
        harness.world.api.post<PersonLabel | Problem>(LABELS, { name: name.toLowerCase() }),
        harness.world.api.post<PersonLabel | Problem>(LABELS, { name }),
      ]);
      const statuses = responses.map((response) => response.status);
      expect(
        statuses.filter((status) => status === 200 || status === 201),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(
        statuses.filter((status) => status === 409),
        JSON.stringify(statuses),
      ).toHaveLength(responses.length - 1);
      for (const response of responses) {
        if (response.status === 409) expect((response.body as Problem).code).toBe('LABEL_NAME_TAKEN');
      }
    }
    expect(harness.server.logs.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('lets another account use the same name, and hides each account’s labels from the other (404)', async () => {
    const name = uniqueName('Shared name');
    const mine = await createLabel({ name });
    const theirs = await createLabel({ name }, harness.stranger.api);
    expect(theirs.labelId).not.toBe(mine.labelId);

    expectProblem(await harness.stranger.api.get<Problem>(`${LABELS}/${mine.labelId}`), 404, 'NOT_FOUND');
    expectProblem(
      await harness.stranger.api.patch<Problem>(`${LABELS}/${mine.labelId}`, { name: 'Hijacked' }),
      404,
      'NOT_FOUND',
    );
    expectProblem(await harness.stranger.api.delete<Problem>(`${LABELS}/${mine.labelId}`), 404, 'NOT_FOUND');
    const theirList = await harness.stranger.api.get<Page<PersonLabel>>(`${LABELS}?limit=200`);
    expect(theirList.body.data.map((label) => label.labelId)).not.toContain(mine.labelId);
    expect((await harness.world.api.get<PersonLabel>(`${LABELS}/${mine.labelId}`)).body).toEqual(mine);
  });

  it('answers 404 for a label id that is not a positive integer', async () => {
    for (const id of ['0', '-1', 'abc', '1.5']) {
      expectProblem(await harness.world.api.get<Problem>(`${LABELS}/${id}`), 404, 'NOT_FOUND');
    }
  });

  it('pages the label list by cursor, oldest first', async () => {
    const fresh = await buildWorld(harness.server);
    const created: PersonLabel[] = [];
    for (let index = 0; index < 5; index += 1) created.push(await createLabel({ name: `Label ${index}` }, fresh.api));
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await fresh.api.get<Page<PersonLabel>>(`${LABELS}?limit=2${query}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((label) => label.labelId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(created.map((label) => label.labelId));
  });

  it('needs labels:write to change labels, while checkins:read may read them', async () => {
    const label = await createLabel({ name: uniqueName('Guarded') });
    const reader = await clientWith(['checkins:read']);
    expect((await reader.get(`${LABELS}/${label.labelId}`)).status).toBe(200);
    expect((await reader.get(LABELS)).status).toBe(200);
    expectProblem(await reader.post<Problem>(LABELS, { name: uniqueName('Nope') }), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(
      await reader.patch<Problem>(`${LABELS}/${label.labelId}`, { name: 'Nope' }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectProblem(await reader.delete<Problem>(`${LABELS}/${label.labelId}`), 403, 'INSUFFICIENT_SCOPE');
    expect((await harness.world.api.get<PersonLabel>(`${LABELS}/${label.labelId}`)).body).toEqual(label);

    const writerOnly = await clientWith(['labels:write']);
    const made = await writerOnly.post<PersonLabel>(LABELS, { name: uniqueName('By writer') });
    expect(made.status).toBe(201);
  });
});

describe('labels on check-ins', () => {
  it('stores the labelIds sent on create', async () => {
    const vip = await createLabel({ name: uniqueName('VIP') });
    const escort = await createLabel({ name: uniqueName('Escort') });
    const created = await checkIn(visitor('Lab', 'Elled', { labelIds: [vip.labelId, escort.labelId] }));
    expect([...created.labelIds].sort((a, b) => a - b)).toEqual([vip.labelId, escort.labelId].sort((a, b) => a - b));
    expect((await readCheckin(created)).labelIds).toEqual(created.labelIds);

    const none = await checkIn(visitor('No', 'Labels'));
    expect(none.labelIds).toEqual([]);
    const repeated = await checkIn(visitor('Twice', 'Labelled', { labelIds: [vip.labelId, vip.labelId] }));
    expect(repeated.labelIds).toEqual([vip.labelId]);
  });

  it('refuses an unknown label id, or another account’s, with 422 VALIDATION_FAILED naming labelIds', async () => {
    const mine = await createLabel({ name: uniqueName('Mine') });
    const theirs = await createLabel({ name: uniqueName('Theirs') }, harness.stranger.api);
    for (const labelIds of [[987_654_321], [2_147_483_648], [theirs.labelId], [mine.labelId, theirs.labelId]]) {
      const response = await harness.world.api.post<Problem>(
        people(harness.world.siteId),
        visitor('Bad', 'Label', { labelIds }),
      );
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(response.body.errors?.some((error) => error.path.startsWith('labelIds'))).toBe(true);
    }
    const notAnId = await harness.world.api.post<Problem>(
      people(harness.world.siteId),
      visitor('Bad', 'Label', { labelIds: ['x'] }),
    );
    expectProblem(notAnId, 422, 'VALIDATION_FAILED');
    expect(notAnId.body.errors?.some((error) => error.path.startsWith('labelIds'))).toBe(true);
  });

  it('takes a deleted label off every check-in that carried it, and only that label', async () => {
    const doomed = await createLabel({ name: uniqueName('Doomed') });
    const kept = await createLabel({ name: uniqueName('Kept') });
    const both = await checkIn(visitor('Both', 'Labels', { labelIds: [doomed.labelId, kept.labelId] }));
    const onlyDoomed = await checkIn(
      visitor('Only', 'Doomed', { labelIds: [doomed.labelId] }),
      harness.world.otherSiteId,
    );
    const onlyKept = await checkIn(visitor('Only', 'Kept', { labelIds: [kept.labelId] }));

    expect((await harness.world.api.delete(`${LABELS}/${doomed.labelId}`)).status).toBe(204);

    expect((await readCheckin(both)).labelIds).toEqual([kept.labelId]);
    expect((await readCheckin(onlyDoomed)).labelIds).toEqual([]);
    expect((await readCheckin(onlyKept)).labelIds).toEqual([kept.labelId]);
    const listed = await harness.world.api.get<Page<PersonCheckin>>(`${people(harness.world.siteId)}?limit=200`);
    expect(listed.body.data.some((item) => item.labelIds.includes(doomed.labelId))).toBe(false);

    const reuse = await harness.world.api.post<Problem>(
      people(harness.world.siteId),
      visitor('Late', 'Comer', { labelIds: [doomed.labelId] }),
    );
    expectProblem(reuse, 422, 'VALIDATION_FAILED');
  });
});

describe('watchlist', () => {
  async function addEntry(body: Record<string, string>, api: ApiClient = harness.world.api): Promise<WatchlistEntry> {
    const response = await api.post<WatchlistEntry>(WATCHLIST, body);
    expect(response.status).toBe(201);
    return response.body;
  }

  async function removeEntry(entry: WatchlistEntry, api: ApiClient = harness.world.api): Promise<void> {
    expect((await api.delete(`${WATCHLIST}/${entry.entryId}`)).status).toBe(204);
  }

  it('creates (201), lists and deletes (204) entries', async () => {
    const entry = await addEntry({
      email: 'listed@example.com',
      firstName: 'List',
      lastName: 'Ed',
      reason: 'Trespass',
    });
    expect(entry).toMatchObject({
      entryId: expect.any(Number),
      email: 'listed@example.com',
      phone: null,
      firstName: 'List',
      lastName: 'Ed',
      reason: 'Trespass',
    });
    const list = await harness.world.api.get<Page<WatchlistEntry>>(`${WATCHLIST}?limit=200`);
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(entry);

    const gone = await harness.world.api.delete(`${WATCHLIST}/${entry.entryId}`);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    const after = await harness.world.api.get<Page<WatchlistEntry>>(`${WATCHLIST}?limit=200`);
    expect(after.body.data.map((item) => item.entryId)).not.toContain(entry.entryId);
    expectProblem(await harness.world.api.delete<Problem>(`${WATCHLIST}/${entry.entryId}`), 404, 'NOT_FOUND');
  });

  it('needs watchlist:manage to read or change it (403 otherwise, checkins:approve included)', async () => {
    const entry = await addEntry({ phone: '+1 555 0100' });
    const clerk = await clientWith(['checkins:read', 'checkins:write', 'checkins:approve', 'labels:write']);
    expectProblem(await clerk.post<Problem>(WATCHLIST, { email: 'x@example.com' }), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await clerk.get<Problem>(WATCHLIST), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await clerk.delete<Problem>(`${WATCHLIST}/${entry.entryId}`), 403, 'INSUFFICIENT_SCOPE');

    const manager = await clientWith(['watchlist:manage']);
    expect((await manager.get(WATCHLIST)).status).toBe(200);
    expect((await manager.delete(`${WATCHLIST}/${entry.entryId}`)).status).toBe(204);
  });

  it('refuses an entry without an identifier, or with a first name only, with 422', async () => {
    const bodies: unknown[] = [
      {},
      { reason: 'No identifier' },
      { firstName: 'Only' },
      { firstName: 'Only', reason: 'First name alone' },
      { lastName: 'Last' },
      { email: 'not-an-email' },
      { phone: '---' },
      { email: 'ok@example.com', extra: 1 },
    ];
    for (const body of bodies) {
      const response = await harness.world.api.post<Problem>(WATCHLIST, body);
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(response.body.errors?.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
  });

  it('stops a person whose email matches, whatever its case', async () => {
    const entry = await addEntry({ email: 'Mallory@Evil.Example' });
    try {
      const stopped = await checkIn({ person: { firstName: 'Mal', lastName: 'Lory', email: 'mALLORY@evil.example' } });
      expect(stopped.status).toBe('STOP');
      expect(stopped.exit).toBeNull();
      const other = await checkIn({ person: { firstName: 'Mal', lastName: 'Lory', email: 'mallory@good.example' } });
      expect(other.status).toBe('IN');
    } finally {
      await removeEntry(entry);
    }
  });

  it('stops a person whose phone has the same digits, however it is written', async () => {
    const entry = await addEntry({ phone: '+44 (0)20-1234' });
    try {
      const stopped = await checkIn({ person: { firstName: 'Pho', lastName: 'Ne', phone: '4402012 34' } });
      expect(stopped.status).toBe('STOP');
      expect(stopped.person.phone).toBe('4402012 34');
      const other = await checkIn({ person: { firstName: 'Pho', lastName: 'Ne', phone: '+44 20 1234' } });
      expect(other.status).toBe('IN');
    } finally {
      await removeEntry(entry);
    }
  });

  it('stops a person whose full name matches, whatever its case; a first name alone does not', async () => {
    const entry = await addEntry({ firstName: 'Eve', lastName: 'Dropper' });
    try {
      expect((await checkIn(visitor('EVE', 'dropper'))).status).toBe('STOP');
      expect((await checkIn(visitor('eve', 'DROPPER'), harness.world.otherSiteId)).status).toBe('STOP');
      expect((await checkIn(visitor('Eve', 'Other'))).status).toBe('IN');
      expect((await checkIn(visitor('Other', 'Dropper'))).status).toBe('IN');
    } finally {
      await removeEntry(entry);
    }
  });

  it('lets a person who matches nothing in, and lets a person in once their entry is deleted', async () => {
    const entry = await addEntry({ email: 'former@example.com' });
    expect(
      (await checkIn({ person: { firstName: 'Inno', lastName: 'Cent', email: 'innocent@example.com' } })).status,
    ).toBe('IN');
    const before = await checkIn({ person: { firstName: 'For', lastName: 'Mer', email: 'former@example.com' } });
    expect(before.status).toBe('STOP');

    await removeEntry(entry);
    const after = await checkIn({ person: { firstName: 'For', lastName: 'Mer', email: 'former@example.com' } });
    expect(after.status).toBe('IN');
    // The check-in stopped earlier stays as it was.
    expect((await readCheckin(before)).status).toBe('STOP');
  });

  it('stops a watchlisted person even at a site that requires approval (STOP wins over PENDING)', async () => {
    const siteId = (await buildSite(harness.server, harness.world.accountId)).siteId;
    const config = await harness.world.api.get<CheckinConfig>(`${people(siteId)}/config`);
    expect(config.status).toBe(200);
    const put = await harness.world.api.put(`${people(siteId)}/config`, {
      requiresApproval: true,
      fields: config.body.fields,
    });
    expect(put.status).toBe(200);
    const entry = await addEntry({ email: 'blocked@example.com' });
    try {
      const stopped = await checkIn(
        { person: { firstName: 'Block', lastName: 'Ed', email: 'BLOCKED@example.com' } },
        siteId,
      );
      expect(stopped.status).toBe('STOP');
      const pending = await checkIn(
        { person: { firstName: 'Wait', lastName: 'Ing', email: 'waiting@example.com' } },
        siteId,
      );
      expect(pending.status).toBe('PENDING');
    } finally {
      await removeEntry(entry);
    }
  });

  it('never matches another account’s watchlist', async () => {
    const theirs = await addEntry(
      { email: 'rival@example.com', phone: '+1 (555) 0199', firstName: 'Riv', lastName: 'Al' },
      harness.stranger.api,
    );
    try {
      const mine = await checkIn({
        person: { firstName: 'Riv', lastName: 'Al', email: 'rival@example.com', phone: '15550199' },
      });
      expect(mine.status).toBe('IN');
      const theirCheckin = await checkIn(
        { person: { firstName: 'Riv', lastName: 'Al' } },
        harness.stranger.siteId,
        harness.stranger.api,
      );
      expect(theirCheckin.status).toBe('STOP');

      const myList = await harness.world.api.get<Page<WatchlistEntry>>(`${WATCHLIST}?limit=200`);
      expect(myList.body.data.map((entry) => entry.entryId)).not.toContain(theirs.entryId);
      expectProblem(await harness.world.api.delete<Problem>(`${WATCHLIST}/${theirs.entryId}`), 404, 'NOT_FOUND');
    } finally {
      await removeEntry(theirs, harness.stranger.api);
    }
  });
});
