import { beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { queryOne } from '../../server/src/db/query';
import { cursorScope, encodeCursor } from '../../server/src/queries/cursor';
import { type PersonCheckinFilter, personCheckinSearchSql } from '../../server/src/queries/personCheckinSearch';
import { type ApiClient, apiClient } from '../support/http';
import { type World, buildAccount, buildSite, buildToken, buildWorld, visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { sql } from '../../server/src/db/sql';

interface Page {
  data: PersonCheckin[];
  nextCursor: string | null;
}

const harness = serverAndWorld();

const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const SEARCH = '/v1/checkins/people/search';
/** An instant `minutes` ago, as a client would send it (milliseconds, UTC). */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const ids = (items: PersonCheckin[]) => items.map((item) => item.checkinId);

async function checkIn(
  siteId: number,
  body: unknown = visitor(),
  api: ApiClient = harness.world.api,
): Promise<PersonCheckin> {
  const response = await api.post<PersonCheckin>(people(siteId), body);
  expect(response.status).toBe(201);
  return response.body;
}

async function freshSite(): Promise<number> {
  return (await buildSite(harness.server, harness.world.accountId)).siteId;
}

/** The order every list promises: newest entry first, then the highest id first. */
function newestFirst(items: PersonCheckin[]): number[] {
  return [...items]
    .sort((a, b) => (a.entry.at === b.entry.at ? b.checkinId - a.checkinId : a.entry.at < b.entry.at ? 1 : -1))
    .map((item) => item.checkinId);
}

/** Follows nextCursor from the first page to the last, counting pages. */
async function walk(
  fetchPage: (cursor: string | undefined) => Promise<Page>,
): Promise<{ ids: number[]; pages: number }> {
  const seen: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const current = await fetchPage(cursor);
    pages += 1;
    seen.push(...ids(current.data));
    cursor = current.nextCursor ?? undefined;
    if (pages > 100) throw new Error('pagination does not end');
  } while (cursor !== undefined);
  return { ids: seen, pages };
}

async function listPage(siteId: number, query: string): Promise<Page> {
  const response = await harness.world.api.get<Page>(`${people(siteId)}?${query}`);
  expect(response.status).toBe(200);
  return response.body;
}

function expectProblem(response: { status: number; headers: Headers; body: Problem }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(response.body.code).toBe(code);
}

describe('GET /v1/sites/{siteId}/checkins/people', () => {
  it('lists newest entry first, whatever the order of creation', async () => {
    const siteId = await freshSite();
    const oldest = await checkIn(siteId, visitor('Old', 'Est', { occurredAt: minutesAgo(30) }));
    const newest = await checkIn(siteId, visitor('New', 'Est', { occurredAt: minutesAgo(10) }));
    const middle = await checkIn(siteId, visitor('Mid', 'Dle', { occurredAt: minutesAgo(20) }));

    const page = await listPage(siteId, '');
    expect(ids(page.data)).toEqual([newest.checkinId, middle.checkinId, oldest.checkinId]);
    expect(page.nextCursor).toBeNull();
    expect(page.data[0]).toEqual(newest);
    expect(page.data.every((item) => item.siteId === siteId)).toBe(true);
  });

  it('lists only the check-ins of the site in the path', async () => {
    const siteId = await freshSite();
    const mine = await checkIn(siteId);
    await checkIn(harness.world.otherSiteId);
    expect(ids((await listPage(siteId, '')).data)).toEqual([mine.checkinId]);
  });

  it('filters by status=IN,ON_BREAK (and by one status)', async () => {
    const siteId = await freshSite();
    const inside = await checkIn(siteId, visitor('In', 'Side', { occurredAt: minutesAgo(30) }));
    const onBreak = await checkIn(siteId, visitor('On', 'Break', { occurredAt: minutesAgo(20) }));
    const out = await checkIn(siteId, visitor('Gone', 'Out', { occurredAt: minutesAgo(10) }));
    expect((await harness.world.api.post(`${people(siteId)}/${onBreak.checkinId}/breaks/start`)).status).toBe(200);
    expect((await harness.world.api.patch(`${people(siteId)}/${out.checkinId}`, {})).status).toBe(200);

    const open = await listPage(siteId, 'status=IN,ON_BREAK');
    expect(ids(open.data)).toEqual([onBreak.checkinId, inside.checkinId]);
    expect(open.data.map((item) => item.status)).toEqual(['ON_BREAK', 'IN']);

    expect(ids((await listPage(siteId, 'status=OUT')).data)).toEqual([out.checkinId]);
    expect(ids((await listPage(siteId, 'status=ON_BREAK')).data)).toEqual([onBreak.checkinId]);
    expect((await listPage(siteId, 'status=PENDING')).data).toEqual([]);
    expect(ids((await listPage(siteId, '')).data)).toEqual([out.checkinId, onBreak.checkinId, inside.checkinId]);
  });

  it('answers 404 NOT_FOUND for a site the token cannot view', async () => {
    const single = await buildToken(harness.server, {
      accountId: harness.world.accountId,
      siteIds: [harness.world.siteId],
      scopes: ['checkins:read'],
    });
    const oneSite = apiClient(harness.server.baseUrl, single.token);
    expect((await oneSite.get(people(harness.world.siteId))).status).toBe(200);
    expectProblem(await oneSite.get<Problem>(people(harness.world.otherSiteId)), 404, 'NOT_FOUND');
    const stranger = await buildWorld(harness.server);
    expectProblem(await stranger.api.get<Problem>(people(harness.world.siteId)), 404, 'NOT_FOUND');
  });

  it('returns 50 items when no limit is given', async () => {
    const siteId = await freshSite();
    for (let index = 0; index < 51; index += 1) await checkIn(siteId, visitor('Many', `Visitor${index}`));
    const first = await listPage(siteId, '');
    expect(first.data).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listPage(siteId, `cursor=${encodeURIComponent(first.nextCursor ?? '')}`);
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a NUL character (%00) in any query parameter with 400 INVALID_QUERY, naming it', async () => {
    for (const query of ['q=a%00b', 'status=IN&q=%00', 'cursor=%00']) {
      const response = await harness.world.api.get<Problem>(`${people(harness.world.siteId)}?${query}`);
      expectProblem(response, 400, 'INVALID_QUERY');
      expect(response.body.detail).toMatch(/NUL/);
    }
    expectProblem(
      await harness.world.api.get<Problem>(`/v1/sites/${harness.world.siteId}/checkins/vehicles?licensePlate=AB%00`),
      400,
      'INVALID_QUERY',
    );
  });

  it('refuses an unknown status with 400 INVALID_QUERY', async () => {
    for (const query of ['status=NOPE', 'status=IN,NOPE', 'status=in', 'status=']) {
      const response = await harness.world.api.get<Problem>(`${people(harness.world.siteId)}?${query}`);
      expectProblem(response, 400, 'INVALID_QUERY');
    }
  });

  it('takes limit from 1 to 200', async () => {
    const siteId = await freshSite();
    for (let index = 0; index < 3; index += 1)
      await checkIn(siteId, visitor('Lim', `It${index}`, { occurredAt: minutesAgo(30 - index) }));

    const one = await listPage(siteId, 'limit=1');
    expect(one.data).toHaveLength(1);
    expect(one.nextCursor).toEqual(expect.any(String));

    const max = await listPage(siteId, 'limit=200');
    expect(max.data).toHaveLength(3);
    expect(max.nextCursor).toBeNull();

    const exact = await listPage(siteId, 'limit=3');
    expect(exact.data).toHaveLength(3);
    expect(exact.nextCursor).toBeNull();
  });

  it('refuses limit 0, 201, abc and other non-integers with 400 INVALID_QUERY', async () => {
    for (const limit of ['0', '201', 'abc', '1.5', '-1', '']) {
      const response = await harness.world.api.get<Problem>(`${people(harness.world.siteId)}?limit=${limit}`);
      expectProblem(response, 400, 'INVALID_QUERY');
      expect(response.body.status).toBe(400);
      expect(response.body.errors).toBeUndefined();
    }
  });

  it('refuses an unknown query parameter with 400 INVALID_QUERY', async () => {
    for (const query of ['foo=1', 'limit=5&sort=asc', 'siteIds=1']) {
      const response = await harness.world.api.get<Problem>(`${people(harness.world.siteId)}?${query}`);
      expectProblem(response, 400, 'INVALID_QUERY');
    }
  });

  it('walks every row exactly once with limit=2, rows sharing one entry time included', async () => {
    const siteId = await freshSite();
    const shared = minutesAgo(45);
    const alsoShared = minutesAgo(15);
    const created: PersonCheckin[] = [];
    created.push(await checkIn(siteId, visitor('Solo', 'One', { occurredAt: minutesAgo(50) })));
    for (let index = 0; index < 4; index += 1) {
      created.push(await checkIn(siteId, visitor('Same', `Time${index}`, { occurredAt: shared })));
    }
    created.push(await checkIn(siteId, visitor('Solo', 'Two', { occurredAt: minutesAgo(30) })));
    for (let index = 0; index < 3; index += 1) {
      created.push(await checkIn(siteId, visitor('Twin', `Time${index}`, { occurredAt: alsoShared })));
    }
    created.push(await checkIn(siteId, visitor('Solo', 'Three', { occurredAt: minutesAgo(5) })));
    expect(created.filter((item) => item.entry.at === shared)).toHaveLength(4);

    const result = await walk((cursor) =>
      listPage(siteId, `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
    );
    expect(result.ids).toEqual(newestFirst(created));
    expect(new Set(result.ids).size).toBe(created.length);
    expect(result.pages).toBe(Math.ceil(created.length / 2));
  });

  it('walks exactly once when stored entry times carry microseconds', async () => {
    const siteId = await freshSite();
    const at = minutesAgo(40);
    const created: PersonCheckin[] = [];
    for (let index = 0; index < 5; index += 1)
      created.push(await checkIn(siteId, visitor('Micro', `S${index}`, { occurredAt: at })));
    // Data imported from elsewhere can hold Postgres' full precision: sub-millisecond offsets a JS Date cannot hold.
    await harness.server.sequelize.query(
      `UPDATE person_checkins SET entry_at = entry_at + (id % 3) * interval '1 microsecond' + interval '400 microseconds'
       WHERE site_id = $1`,
      { bind: [siteId] },
    );
    const expected = [...created]
      .sort((a, b) => (b.checkinId % 3) - (a.checkinId % 3) || b.checkinId - a.checkinId)
      .map((item) => item.checkinId);

    for (const limit of [1, 2]) {
      const result = await walk((cursor) =>
        listPage(siteId, `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
      );
      expect(result.ids).toEqual(expected);
    }
  });

  it('stays stable when check-ins are created between page fetches', async () => {
    const siteId = await freshSite();
    const existing: PersonCheckin[] = [];
    for (let index = 0; index < 6; index += 1) {
      existing.push(
        await checkIn(siteId, visitor('Early', `Bird${index}`, { occurredAt: minutesAgo(60 - index * 10) })),
      );
    }
    const order = newestFirst(existing);

    const first = await listPage(siteId, 'limit=2');
    expect(ids(first.data)).toEqual(order.slice(0, 2));
    const lastSeen = first.data[1];
    if (!lastSeen || !first.nextCursor) throw new Error('expected a second page');

    // Newer than everything; at the very time of the page's last row (a higher id sorts before it); in the middle of what is left.
    await checkIn(siteId, visitor('Late', 'Newest'));
    await checkIn(siteId, visitor('Late', 'SameTime', { occurredAt: lastSeen.entry.at }));
    const middle = await checkIn(
      siteId,
      visitor('Late', 'Middle', { occurredAt: new Date(Date.parse(lastSeen.entry.at) - 5 * 60_000).toISOString() }),
    );

    const rest = await walk(async (cursor) =>
      listPage(siteId, `limit=2&cursor=${encodeURIComponent(cursor ?? first.nextCursor ?? '')}`),
    );
    const all = [...ids(first.data), ...rest.ids];
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((id) => order.includes(id))).toEqual(order);
    // The only newcomer a later page may show is one that sorts after the cursor.
    expect(all.filter((id) => !order.includes(id))).toEqual([middle.checkinId]);
  });

  it('refuses a malformed cursor with 400 INVALID_QUERY', async () => {
    const forged = [
      'not-a-cursor',
      Buffer.from('{"at":1,"id":2}').toString('base64url'),
      Buffer.from('[1700000000000000,0]').toString('base64url'),
      Buffer.from('[1.5,3]').toString('base64url'),
      Buffer.from('["1700000000000000",3]').toString('base64url'),
      '',
      'x'.repeat(600),
    ];
    for (const cursor of forged) {
      const response = await harness.world.api.get<Problem>(
        `${people(harness.world.siteId)}?cursor=${encodeURIComponent(cursor)}`,
      );
      expectProblem(response, 400, 'INVALID_QUERY');
    }
  });

  it('refuses a cursor on another list, another site or with other filters (400 INVALID_QUERY); the same filters go on', async () => {
    const [siteA, siteB] = [await freshSite(), await freshSite()];
    for (const siteId of [siteA, siteB]) for (let i = 0; i < 3; i += 1) await checkIn(siteId);
    const first = await listPage(siteA, 'limit=1&status=IN');
    const cursor = encodeURIComponent(first.nextCursor ?? '');
    expect((await listPage(siteA, `limit=1&status=IN&cursor=${cursor}`)).data).toHaveLength(1);
    for (const path of [
      `${people(siteB)}?limit=1&status=IN&cursor=${cursor}`,
      `${people(siteA)}?limit=1&status=IN,OUT&cursor=${cursor}`,
      `${people(siteA)}?limit=1&cursor=${cursor}`,
      `/v1/sites/${siteA}/checkins/vehicles?limit=1&status=IN&cursor=${cursor}`,
      `/v1/sites?cursor=${cursor}`,
    ]) {
      const response = await harness.world.api.get<Problem>(path);
      expectProblem(response, 400, 'INVALID_QUERY');
      expect(response.body.detail).toContain('other filters');
    }
    const searched = await harness.world.api.post<Problem>(SEARCH, {
      siteIds: [siteA],
      status: ['OUT'],
      limit: 1,
      cursor: first.nextCursor,
    });
    expectProblem(searched, 400, 'INVALID_QUERY');
  });

  it('refuses, on the lists ordered by id, a cursor whose id no 32-bit id can be (400, not a database error)', async () => {
    const lists = {
      '/v1/sites': 'sites',
      '/v1/labels/people': 'person_labels',
      '/v1/labels/vehicles': 'vehicle_labels',
      '/v1/watchlist/people': 'watchlist_people',
      '/v1/webhooks/subscriptions': 'webhook_subscriptions',
    };
    for (const [path, list] of Object.entries(lists)) {
      // Issued for this very list (the scope is right), so only the id can be what is refused.
      const beyond = encodeCursor(
        { atMicros: 0, id: 3_000_000_000 },
        cursorScope(list, { accountId: harness.world.accountId }),
      );
      const response = await harness.world.api.get<Problem>(`${path}?cursor=${beyond}`);
      expectProblem(response, 400, 'INVALID_QUERY');
      expect(response.body.detail).toBe('The cursor is not one this API issued.');
    }
  });

  it('refuses a query parameter on a route that takes none with 400 INVALID_QUERY', async () => {
    const created = await checkIn(harness.world.siteId);
    for (const path of [
      `${people(harness.world.siteId)}/${created.checkinId}?foo=1`,
      `/v1/sites/${harness.world.siteId}/checkins/people/config?foo=1`,
      `/v1/sites/${harness.world.siteId}?x=`,
    ]) {
      const response = await harness.world.api.get<Problem>(path);
      expectProblem(response, 400, 'INVALID_QUERY');
      expect(response.body.detail).toMatch(/foo|x/);
    }
    expectProblem(
      await harness.world.api.post<Problem>(`${people(harness.world.siteId)}?foo=1`, visitor()),
      400,
      'INVALID_QUERY',
    );
  });
});

describe('POST /v1/checkins/people/search', () => {
  let account: World;
  let thirdSiteId: number;
  /** Token limited to `account.siteId`. */
  let oneSite: ApiClient;
  let kiosk: ApiClient;
  let lobbyKiosk: ApiClient;
  let stranger: World;
  const made: Record<string, PersonCheckin> = {};

  async function search(body: unknown, api: ApiClient = account.api): Promise<Page> {
    const response = await api.post<Page>(SEARCH, body);
    expect(response.status).toBe(200);
    return response.body;
  }

  async function searchAll(body: Record<string, unknown>, api: ApiClient = account.api): Promise<number[]> {
    return (await walk((cursor) => search({ ...body, limit: 200, ...(cursor ? { cursor } : {}) }, api))).ids;
  }

  const idsOf = (...names: string[]) =>
    newestFirst(
      names.map((name) => {
        const item = made[name];
        if (!item) throw new Error(`no check-in named ${name}`);
        return item;
      }),
    );

  beforeAll(async () => {
    account = await buildWorld(harness.server);
    thirdSiteId = (await buildSite(harness.server, account.accountId)).siteId;
    const single = await buildToken(harness.server, {
      accountId: account.accountId,
      siteIds: [account.siteId],
      scopes: ['checkins:read', 'checkins:write'],
    });
    oneSite = apiClient(harness.server.baseUrl, single.token);
    // A kiosk's token is for one site (issue 31): one kiosk at each of two sites.
    const kioskToken = await buildToken(harness.server, {
      accountId: account.accountId,
      siteIds: [account.otherSiteId],
      channel: 'KIOSK',
      mode: 'visitor',
    });
    kiosk = apiClient(harness.server.baseUrl, kioskToken.token);
    const lobbyToken = await buildToken(harness.server, {
      accountId: account.accountId,
      siteIds: [account.siteId],
      channel: 'KIOSK',
      mode: 'visitor',
    });
    lobbyKiosk = apiClient(harness.server.baseUrl, lobbyToken.token);
    stranger = await buildWorld(harness.server);

    const at = (minutes: number) => minutesAgo(minutes);
    const create = async (name: string, siteId: number, body: unknown, api: ApiClient = account.api) => {
      const response = await api.post<PersonCheckin>(people(siteId), body);
      expect(response.status).toBe(201);
      made[name] = response.body;
    };
    await create('ada', account.siteId, {
      person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: 'Analytical Engines' },
      occurredAt: at(90),
    });
    await create('grace', account.siteId, {
      person: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example', company: 'US Navy' },
      occurredAt: at(80),
    });
    await create(
      'alan',
      account.otherSiteId,
      {
        person: { firstName: 'Alan', lastName: 'Turing', email: 'alan@bletchley.example', company: 'Bletchley Park' },
        occurredAt: at(70),
      },
      kiosk,
    );
    await create('edsger', account.otherSiteId, {
      person: { firstName: 'Edsger', lastName: 'Dijkstra', email: 'ewd@tue.example', company: 'Eindhoven' },
      occurredAt: at(60),
    });
    await create('underscore', thirdSiteId, {
      person: { firstName: 'Ann_e', lastName: 'Percy', company: '50% Off' },
      occurredAt: at(50),
    });
    await create('annie', thirdSiteId, {
      person: { firstName: 'Annie', lastName: 'Hall', company: '500 Ltd' },
      occurredAt: at(40),
    });
    await create(
      'barbara',
      account.siteId,
      {
        person: { firstName: 'Barbara', lastName: 'Liskov', email: 'LISKOV@MIT.example', company: 'MIT' },
        occurredAt: at(30),
      },
      lobbyKiosk,
    );
    // The same names in another account: never visible here.
    await create(
      'foreignAda',
      stranger.siteId,
      {
        person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: 'Analytical Engines' },
        occurredAt: at(85),
      },
      stranger.api,
    );

    const item = (name: string, siteId: number) => `${people(siteId)}/${made[name]?.checkinId}`;
    expect((await account.api.patch(item('grace', account.siteId), { exit: { source: 'MANUAL' } })).status).toBe(200);
    expect((await kiosk.patch(item('edsger', account.otherSiteId), {})).status).toBe(200);
    expect((await account.api.post(`${item('alan', account.otherSiteId)}/breaks/start`)).status).toBe(200);
  });

  const everyone = () => idsOf('ada', 'grace', 'alan', 'edsger', 'underscore', 'annie', 'barbara');

  it('spans every site the token can view when siteIds is omitted or []', async () => {
    expect(ids((await search({})).data)).toEqual(everyone());
    expect(ids((await search({ siteIds: [] })).data)).toEqual(everyone());
    expect(made.foreignAda).toBeDefined();
    expect(ids((await search({}, stranger.api)).data)).toEqual(idsOf('foreignAda'));
  });

  it('is a read: an Idempotency-Key is ignored (never replayed), and a body without limit gets 50 items', async () => {
    const own = await buildWorld(harness.server);
    const created: number[] = [];
    for (let index = 0; index < 51; index += 1) {
      const response = await own.api.post<PersonCheckin>(people(own.siteId), visitor(`Many${index}`));
      created.push(response.body.checkinId);
    }
    const first = await own.api.post<Page>(SEARCH, {}, { idempotencyKey: 'search-key' });
    expect(first.body.data).toHaveLength(50);
    expect(first.body.nextCursor).not.toBeNull();
    const more = await own.api.post<PersonCheckin>(people(own.siteId), visitor('Later'));
    const again = await own.api.post<Page>(SEARCH, {}, { idempotencyKey: 'search-key' });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.data[0]?.checkinId).toBe(more.body.checkinId);
    expect(again.body.data).toHaveLength(50);
  });

  it('accepts an empty body, and no body at all', async () => {
    const noBody = await account.api.post<Page>(SEARCH);
    expect(noBody.status).toBe(200);
    expect(ids(noBody.body.data)).toEqual(everyone());
    expect(noBody.body.nextCursor).toBeNull();
  });

  it('gives a one-site token only that site, whether siteIds is omitted, [] or names it', async () => {
    const expected = idsOf('ada', 'grace', 'barbara');
    expect(ids((await search({}, oneSite)).data)).toEqual(expected);
    expect(ids((await search({ siteIds: [] }, oneSite)).data)).toEqual(expected);
    expect(ids((await search({ siteIds: [account.siteId] }, oneSite)).data)).toEqual(expected);
    expect((await search({ q: 'alan' }, oneSite)).data).toEqual([]);
  });

  it('narrows to one site or several sites', async () => {
    const one = await search({ siteIds: [account.otherSiteId] });
    expect(ids(one.data)).toEqual(idsOf('alan', 'edsger'));
    const several = await search({ siteIds: [account.siteId, thirdSiteId] });
    expect(ids(several.data)).toEqual(idsOf('ada', 'grace', 'underscore', 'annie', 'barbara'));
    const repeated = await search({ siteIds: [thirdSiteId, thirdSiteId] });
    expect(ids(repeated.data)).toEqual(idsOf('underscore', 'annie'));
  });

  it('answers 404 NOT_FOUND for a site the token cannot view, alone or among visible ones', async () => {
    const cases: Array<[ApiClient, number[]]> = [
      [oneSite, [account.otherSiteId]],
      [oneSite, [account.siteId, account.otherSiteId]],
      [account.api, [stranger.siteId]],
      [account.api, [account.siteId, stranger.siteId]],
      [account.api, [987_654_321]],
      // Past the range of the sites' integer ids: still a site nobody can view, not a database error.
      [account.api, [2_147_483_648]],
      [account.api, [account.siteId, Number.MAX_SAFE_INTEGER]],
    ];
    for (const [api, siteIds] of cases) {
      const response = await api.post<Problem>(SEARCH, { siteIds });
      expectProblem(response, 404, 'NOT_FOUND');
    }
  });

  it('gives every item the siteId it belongs to', async () => {
    const page = await search({});
    for (const item of page.data) {
      const original = Object.values(made).find((candidate) => candidate.checkinId === item.checkinId);
      expect(item.siteId).toBe(original?.siteId);
    }
    expect(new Set(page.data.map((item) => item.siteId))).toEqual(
      new Set([account.siteId, account.otherSiteId, thirdSiteId]),
    );
  });

  it('filters by status', async () => {
    expect(ids((await search({ status: ['OUT'] })).data)).toEqual(idsOf('grace', 'edsger'));
    expect(ids((await search({ status: ['ON_BREAK'] })).data)).toEqual(idsOf('alan'));
    expect(ids((await search({ status: ['IN', 'ON_BREAK'] })).data)).toEqual(
      idsOf('ada', 'alan', 'underscore', 'annie', 'barbara'),
    );
    expect((await search({ status: ['PENDING', 'STOP'] })).data).toEqual([]);
    expect(ids((await search({ status: [] })).data)).toEqual(everyone());
  });

  it('filters by entrySource (KIOSK for kiosk-channel tokens) and exitSource', async () => {
    const fromKiosk = await search({ entrySource: ['KIOSK'] });
    expect(ids(fromKiosk.data)).toEqual(idsOf('alan', 'barbara'));
    expect(fromKiosk.data.every((item) => item.entry.source === 'KIOSK')).toBe(true);
    expect(ids((await search({ entrySource: ['API'] })).data)).toEqual(
      idsOf('ada', 'grace', 'edsger', 'underscore', 'annie'),
    );
    expect(ids((await search({ entrySource: ['API', 'KIOSK'] })).data)).toEqual(everyone());
    expect((await search({ entrySource: ['QR_CODE'] })).data).toEqual([]);

    expect(ids((await search({ exitSource: ['MANUAL'] })).data)).toEqual(idsOf('grace'));
    expect(ids((await search({ exitSource: ['KIOSK'] })).data)).toEqual(idsOf('edsger'));
    expect(ids((await search({ exitSource: ['MANUAL', 'KIOSK'] })).data)).toEqual(idsOf('grace', 'edsger'));
  });

  it('filters by entry time with from and to, both inclusive', async () => {
    const grace = made.grace?.entry.at ?? '';
    const edsger = made.edsger?.entry.at ?? '';
    expect(ids((await search({ from: grace, to: edsger })).data)).toEqual(idsOf('grace', 'alan', 'edsger'));
    expect(ids((await search({ from: grace, to: grace })).data)).toEqual(idsOf('grace'));
    const justAfter = new Date(Date.parse(grace) + 1).toISOString();
    expect(ids((await search({ from: justAfter, to: edsger })).data)).toEqual(idsOf('alan', 'edsger'));
    expect(ids((await search({ to: grace })).data)).toEqual(idsOf('ada', 'grace'));
    expect(ids((await search({ from: made.annie?.entry.at })).data)).toEqual(idsOf('annie', 'barbara'));
    // Any offset names the same instant: 09:00Z is 11:00+02:00.
    const withOffset = `${new Date(Date.parse(grace) + 2 * 3_600_000).toISOString().slice(0, -1)}+02:00`;
    expect(ids((await search({ from: withOffset, to: withOffset })).data)).toEqual(idsOf('grace'));
  });

  it('matches q as a case-insensitive prefix of first name, last name, email or company', async () => {
    const cases: Array<[string, string[]]> = [
      ['ada', ['ada']],
      ['ADA', ['ada']],
      ['love', ['ada']],
      ['LoVeLaCe', ['ada']],
      ['grace@navy', ['grace']],
      ['liskov@mit', ['barbara']],
      ['analytical', ['ada']],
      ['us nav', ['grace']],
      ['an', ['underscore', 'annie', 'ada']],
      ['e', ['edsger']],
      ['EWD@', ['edsger']],
      ['al', ['alan']],
    ];
    for (const [q, names] of cases) {
      expect(ids((await search({ q })).data), `q=${q}`).toEqual(idsOf(...names));
    }
  });

  it('matches q case-insensitively beyond ASCII', async () => {
    const own = await buildWorld(harness.server);
    const elodie = await checkIn(
      own.siteId,
      { person: { firstName: 'Élodie', lastName: 'Øberg', company: 'ÅRHUS Ärzte' } },
      own.api,
    );
    for (const q of ['élo', 'ÉLO', 'øBERG', 'århus', 'årHUS ärz']) {
      expect(ids((await search({ q }, own.api)).data), `q=${q}`).toEqual([elodie.checkinId]);
    }
  });

  it('gives a token with no sites nothing', async () => {
    const none = await buildToken(harness.server, {
      accountId: account.accountId,
      siteIds: [],
      scopes: ['checkins:read'],
    });
    const api = apiClient(harness.server.baseUrl, none.token);
    expect(await search({}, api)).toEqual({ data: [], nextCursor: null });
    expect(await search({ siteIds: [] }, api)).toEqual({ data: [], nextCursor: null });
    expectProblem(await api.post<Problem>(SEARCH, { siteIds: [account.siteId] }), 404, 'NOT_FOUND');
  });

  it('does not match q in the middle of a value', async () => {
    for (const q of ['lace', 'race', 'example', 'navy', 'ngines', 'ark']) {
      expect((await search({ q })).data, `q=${q}`).toEqual([]);
    }
  });

  it('treats % and _ in q as literal characters', async () => {
    expect(ids((await search({ q: 'ann_' })).data)).toEqual(idsOf('underscore'));
    expect(ids((await search({ q: '50%' })).data)).toEqual(idsOf('underscore'));
    expect(ids((await search({ q: '50' })).data)).toEqual(idsOf('underscore', 'annie'));
    expect((await search({ q: '%' })).data).toEqual([]);
    expect((await search({ q: '_' })).data).toEqual([]);
    expect((await search({ q: '%ace' })).data).toEqual([]);
    expect((await search({ q: 'a\\' })).data).toEqual([]);
  });

  it('combines filters (all must hold)', async () => {
    expect(ids((await search({ siteIds: [account.siteId], status: ['OUT'], q: 'gr' })).data)).toEqual(idsOf('grace'));
    expect((await search({ siteIds: [account.otherSiteId], q: 'gr' })).data).toEqual([]);
    expect(ids((await search({ entrySource: ['KIOSK'], status: ['IN'] })).data)).toEqual(idsOf('barbara'));
    expect(ids((await search({ status: ['IN', 'ON_BREAK'], q: 'a', to: made.alan?.entry.at })).data)).toEqual(
      idsOf('ada', 'alan'),
    );
    expect((await search({ exitSource: ['MANUAL'], entrySource: ['KIOSK'] })).data).toEqual([]);
    expect(ids((await search({ q: 'a', from: made.underscore?.entry.at }, oneSite)).data)).toEqual([]);
    expect(ids((await search({ q: 'b', status: ['IN'] }, oneSite)).data)).toEqual(idsOf('barbara'));
  });

  it('pages with limit and cursor in the body', async () => {
    const first = await search({ limit: 3 });
    expect(ids(first.data)).toEqual(everyone().slice(0, 3));
    expect(first.nextCursor).toEqual(expect.any(String));

    const walked = await walk((cursor) => search({ limit: 2, ...(cursor ? { cursor } : {}) }));
    expect(walked.ids).toEqual(everyone());
    expect(walked.pages).toBe(4);

    const filtered = await walk((cursor) =>
      search({ limit: 1, status: ['IN', 'ON_BREAK'], ...(cursor ? { cursor } : {}) }),
    );
    expect(filtered.ids).toEqual(idsOf('ada', 'alan', 'underscore', 'annie', 'barbara'));

    expect(await searchAll({ siteIds: [thirdSiteId] })).toEqual(idsOf('underscore', 'annie'));
  });

  it('refuses a malformed cursor in the body with 400 INVALID_QUERY', async () => {
    for (const cursor of [
      'garbage',
      Buffer.from('[1,-4]').toString('base64url'),
      Buffer.from('null').toString('base64url'),
      '',
      'x'.repeat(600),
    ]) {
      const response = await account.api.post<Problem>(SEARCH, { cursor });
      expectProblem(response, 400, 'INVALID_QUERY');
    }
  });

  it('refuses an invalid body with 422 VALIDATION_FAILED and its errors', async () => {
    const cases: Array<[unknown, string]> = [
      [{ foo: 1 }, 'foo'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 201 }, 'limit'],
      [{ limit: '10' }, 'limit'],
      [{ status: ['NOPE'] }, 'status'],
      [{ status: 'IN' }, 'status'],
      [{ entrySource: ['PHONE'] }, 'entrySource'],
      [{ exitSource: ['api'] }, 'exitSource'],
      [{ siteIds: ['1'] }, 'siteIds'],
      [{ siteIds: [0] }, 'siteIds'],
      [{ from: 'yesterday' }, 'from'],
      [{ from: minutesAgo(10), to: minutesAgo(20) }, 'to'],
      [{ q: '' }, 'q'],
    ];
    for (const [body, field] of cases) {
      const response = await account.api.post<Problem>(SEARCH, body);
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(response.body.errors?.length, JSON.stringify(body)).toBeGreaterThan(0);
      const named = (response.body.errors ?? []).some(
        (error) => error.path.startsWith(field) || error.message.includes(field),
      );
      expect(named, `${JSON.stringify(body)} → ${JSON.stringify(response.body.errors)}`).toBe(true);
    }
  });

  it('needs checkins:read', async () => {
    const writer = await buildToken(harness.server, { accountId: account.accountId, scopes: ['labels:write'] });
    const response = await apiClient(harness.server.baseUrl, writer.token).post<Problem>(SEARCH, {});
    expectProblem(response, 403, 'INSUFFICIENT_SCOPE');
  });

  it('sees nothing of another account even with the same names', async () => {
    const other = await buildAccount(harness.server);
    const site = await buildSite(harness.server, other.accountId);
    const token = await buildToken(harness.server, { accountId: other.accountId, siteIds: [site.siteId] });
    const page = await search({ q: 'ada' }, apiClient(harness.server.baseUrl, token.token));
    expect(page.data).toEqual([]);
    expect(ids((await search({ q: 'ada' })).data)).toEqual(idsOf('ada'));
  });
});

describe('q beyond ASCII', () => {
  it("matches whatever the case of accented letters, on a cluster with PostgreSQL's own Unicode case mapping", async () => {
    // A server given by TEST_DATABASE_URL is as its owner made it (its ctype may fold ASCII only).
    if (process.env.TEST_DATABASE_URL) return;
    const own = await buildWorld(harness.server);
    const created = await own.api.post<PersonCheckin>(
      `/v1/sites/${own.siteId}/checkins/people`,
      visitor('Élodie', 'Οδοσ'),
    );
    expect(created.status).toBe(201);
    // ΟΔΟΣ: JavaScript would lower its last letter to ς, PostgreSQL (as the stored name) to σ.
    for (const q of ['élo', 'ÉLO', 'οδοσ', 'ΟΔΟΣ']) {
      const found = await own.api.post<{ data: PersonCheckin[] }>('/v1/checkins/people/search', { q });
      expect(
        found.body.data.map((visit) => visit.checkinId),
        `q=${q}`,
      ).toEqual([created.body.checkinId]);
    }
    // Not by luck of the machine's locales: the embedded cluster uses the builtin provider.
    const row = await queryOne<{ provider: string }>(
      harness.server.database,
      sql`SELECT datlocprovider AS provider FROM pg_database WHERE datname = current_database()`,
    );
    expect(row?.provider).toBe('b');
  });
});

describe('the source filters on a large account', () => {
  /** Every index a plan reads person_checkins by, and whether it sorts (EXPLAIN's JSON, walked). */
  function scansOf(
    plan: unknown,
    found: { indexes: string[]; sorts: number; seqScans: number } = { indexes: [], sorts: 0, seqScans: 0 },
  ) {
    if (plan === null || typeof plan !== 'object') return found;
    const node = plan as Record<string, unknown>;
    if (node['Relation Name'] === 'person_checkins') {
      if (typeof node['Index Name'] === 'string') found.indexes.push(node['Index Name']);
      if (node['Node Type'] === 'Seq Scan') found.seqScans += 1;
    }
    if (node['Node Type'] === 'Sort') found.sorts += 1;
    for (const value of Object.values(node))
      for (const child of Array.isArray(value) ? value : [value]) scansOf(child, found);
    return found;
  }

  it('reads a source few check-ins have by its own index, in time order, a page and no more', async () => {
    const { accountId } = await buildAccount(harness.server);
    const { siteId } = await buildSite(harness.server, accountId);
    const db = harness.server.database;
    // 40,000 check-ins; 1 in 2,000 came in by WORKFORCE, and 1 in 2,000 of those that left went by OTHER.
    await queryOne(
      db,
      sql`
      INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, entry_source, entry_at,
        exit_source, exit_at, last_event_at, created_at, updated_at)
      SELECT ${accountId}, ${siteId}, 'OUT', 'Bulk', 'Visitor' || g, CASE WHEN g % 2000 = 0 THEN 'WORKFORCE' ELSE 'KIOSK' END,
        now() - g * interval '1 minute', CASE WHEN g % 2000 = 1 THEN 'OTHER' ELSE 'KIOSK' END,
        now() - g * interval '1 minute' + interval '1 hour', now(), now(), now()
      FROM generate_series(1, 40000) AS g`,
    );
    await queryOne(db, sql`ANALYZE person_checkins`);
    const cases: Array<[Partial<PersonCheckinFilter>, string]> = [
      [{ entrySource: ['WORKFORCE'] }, 'person_checkins_entry_source'],
      [{ exitSource: ['OTHER'] }, 'person_checkins_exit_source'],
    ];
    for (const [filter, index] of cases) {
      const { statement } = personCheckinSearchSql({ accountId, limit: 10, ...filter });
      const explained = await queryOne<{ 'QUERY PLAN': unknown }>(db, sql`EXPLAIN (FORMAT JSON) ${statement}`);
      const scans = scansOf(explained?.['QUERY PLAN']);
      expect(scans, JSON.stringify(filter)).toEqual({ indexes: [index], sorts: 0, seqScans: 0 });
    }
    // And the answers are the right ones, newest first, through the API.
    const token = await buildToken(harness.server, { accountId, siteIds: [siteId] });
    const found = await apiClient(harness.server.baseUrl, token.token).post<Page>(SEARCH, {
      entrySource: ['WORKFORCE'],
      limit: 200,
    });
    expect(found.body.data).toHaveLength(20);
    expect(found.body.data.every((visit) => visit.entry.source === 'WORKFORCE')).toBe(true);
    expect(ids(found.body.data)).toEqual(newestFirst(found.body.data));
  });
});
