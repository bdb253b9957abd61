import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { buildSite } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import {
  type Page,
  VEHICLE_SEARCH,
  arrive,
  clientWith,
  expectProblem,
  registerVehicle,
  uniquePlate,
  visit,
  visits,
} from '../support/vehicles';

const harness = serverAndWorld({ stranger: true });

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const ids = (items: VehicleCheckin[]) => items.map((item) => item.checkinId);
const freshSite = async () => (await buildSite(harness.server, harness.world.accountId)).siteId;

/** Follows nextCursor to the end; every page no longer than the limit asked for. */
async function walk(
  fetchPage: (cursor: string | undefined) => Promise<{ status: number; body: Page<VehicleCheckin> }>,
  limit: number,
) {
  const seen: number[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages += 1) {
    const page = await fetchPage(cursor);
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...ids(page.body.data));
    cursor = page.body.nextCursor ?? undefined;
    if (cursor === undefined) return seen;
  }
  throw new Error('pagination does not end');
}

/** A visit that entered `minutes` ago, checked out at once unless `open`. */
async function history(siteId: number, licensePlate: string, minutes: number, open = false): Promise<VehicleCheckin> {
  const created = await arrive(harness.world.api, siteId, { licensePlate, occurredAt: minutesAgo(minutes) });
  if (open) return created;
  const out = await harness.world.api.patch<VehicleCheckin>(visit(created), {});
  return out.body;
}

describe('GET /v1/sites/{siteId}/checkins/vehicles', () => {
  it('lists the site newest entry first, in keyset pages, filtered by status', async () => {
    const siteId = await freshSite();
    const made = [
      await history(siteId, uniquePlate(), 50),
      await history(siteId, uniquePlate(), 10, true),
      await history(siteId, uniquePlate(), 30, true),
      await history(siteId, uniquePlate(), 20),
      await history(siteId, uniquePlate(), 40, true),
    ];
    const newestFirst = [...made].sort((a, b) => (a.entry.at < b.entry.at ? 1 : -1)).map((item) => item.checkinId);
    expect(
      await walk((cursor) => harness.world.api.get(`${visits(siteId)}?limit=2${cursor ? `&cursor=${cursor}` : ''}`), 2),
    ).toEqual(newestFirst);
    const onSite = await harness.world.api.get<Page<VehicleCheckin>>(`${visits(siteId)}?status=PENDING,IN`);
    expect(ids(onSite.body.data)).toEqual(
      newestFirst.filter((id) => made.find((item) => item.checkinId === id)?.status !== 'OUT'),
    );
    await arrive(harness.world.api, await freshSite(), { licensePlate: uniquePlate() });
    expect((await harness.world.api.get<Page<VehicleCheckin>>(visits(siteId))).body.data).toHaveLength(5);
  });

  it('by plate (any spelling) lists that plate only, its open visit first', async () => {
    const siteId = await freshSite();
    const plate = uniquePlate('SITE');
    const closed = await history(siteId, plate.toLowerCase(), 5);
    // An offline gate syncing late: the open visit entered before the closed one.
    const open = await history(siteId, plate, 60, true);
    await history(siteId, uniquePlate(), 1);
    const page = await harness.world.api.get<Page<VehicleCheckin>>(
      `${visits(siteId)}?licensePlate=${encodeURIComponent(plate.replaceAll('-', ' '))}`,
    );
    expect(ids(page.body.data)).toEqual([open.checkinId, closed.checkinId]);
  });

  it('refuses bad query parameters with 400 INVALID_QUERY', async () => {
    for (const query of ['status=ON_BREAK', 'status=LEFT', 'licensePlate=A%2FB', 'limit=201', 'cursor=abc', 'q=x']) {
      expectProblem(
        await harness.world.api.get<Problem>(`${visits(harness.world.siteId)}?${query}`),
        400,
        'INVALID_QUERY',
      );
    }
  });
});

describe('POST /v1/checkins/vehicles/search', () => {
  it('by plate: every visit of that plate across sites, open ones first, then newest first, page after page', async () => {
    const [a, b, c] = [await freshSite(), await freshSite(), await freshSite()];
    const plate = uniquePlate('FLEET');
    // Open at A since long ago and at B recently; closed visits at C newer than A's open one.
    const openA = await history(a, plate, 300, true);
    const closed = [await history(c, plate, 200), await history(c, plate, 100), await history(c, plate, 30)];
    const openB = await history(b, plate.toLowerCase(), 20, true);
    await history(a, uniquePlate(), 1);
    const expected = [openB.checkinId, openA.checkinId, ...closed.map((item) => item.checkinId).reverse()];
    const first = await harness.world.api.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, { licensePlate: plate });
    expect(ids(first.body.data)).toEqual(expected);
    expect(first.body.data[0]?.siteId).toBe(b);
    for (const limit of [1, 2, 3]) {
      const walked = await walk(
        (cursor) => harness.world.api.post(VEHICLE_SEARCH, { licensePlate: plate.replaceAll('-', '.'), limit, cursor }),
        limit,
      );
      expect(walked).toEqual(expected);
    }
    const oneSite = await harness.world.api.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, {
      licensePlate: plate,
      siteIds: [c],
    });
    expect(ids(oneSite.body.data)).toEqual(expected.slice(2));
    const openOnly = await harness.world.api.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, {
      licensePlate: plate,
      status: ['IN', 'PENDING'],
    });
    expect(ids(openOnly.body.data)).toEqual([openB.checkinId, openA.checkinId]);
  });

  it('by plate finds the open visit of a registered vehicle (entered by vehicleId), with its vehicleId, in any spelling', async () => {
    const site = await freshSite();
    const plate = uniquePlate('REG');
    const registered = await registerVehicle(harness.world.api, { licensePlate: plate });
    const entered = await arrive(harness.world.api, site, { vehicleId: registered.vehicleId });
    expect(entered.status).toBe('IN');
    const found = await harness.world.api.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, {
      licensePlate: plate.toLowerCase().replaceAll('-', ' '),
    });
    expect(found.status).toBe(200);
    expect(found.body.data[0]).toMatchObject({
      checkinId: entered.checkinId,
      vehicleId: registered.vehicleId,
      siteId: site,
      status: 'IN',
    });
  });

  it('without a plate: newest entry first across the sites the token can view, with status and time window', async () => {
    const [a, b] = [await freshSite(), await freshSite()];
    const old = await history(a, uniquePlate(), 120);
    const mid = await history(b, uniquePlate(), 60, true);
    const recent = await history(a, uniquePlate(), 15);
    const both = await harness.world.api.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, { siteIds: [a, b] });
    expect(ids(both.body.data)).toEqual([recent.checkinId, mid.checkinId, old.checkinId]);
    const window = await harness.world.api.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, {
      siteIds: [a, b],
      from: minutesAgo(90),
      to: minutesAgo(30),
    });
    expect(ids(window.body.data)).toEqual([mid.checkinId]);
    const out = await harness.world.api.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, {
      siteIds: [a, b],
      status: ['OUT'],
    });
    expect(ids(out.body.data)).toEqual([recent.checkinId, old.checkinId]);
    const walked = await walk(
      (cursor) => harness.world.api.post(VEHICLE_SEARCH, { siteIds: [a, b], limit: 1, cursor }),
      1,
    );
    expect(walked).toEqual([recent.checkinId, mid.checkinId, old.checkinId]);

    const narrow = await clientWith(harness.server, harness.world, ['vehicles:read'], [b]);
    const visible = await narrow.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, {});
    expect(visible.body.data.every((item) => item.siteId === b)).toBe(true);
    expect(ids(visible.body.data)).toContain(mid.checkinId);
    expectProblem(await narrow.post<Problem>(VEHICLE_SEARCH, { siteIds: [a] }), 404, 'NOT_FOUND');
  });

  it('an empty body searches everything; a search is a read (Idempotency-Key ignored, no replay)', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    const all = await harness.world.api.request<Page<VehicleCheckin>>('POST', VEHICLE_SEARCH);
    expect(all.status).toBe(200);
    expect(ids(all.body.data)).toContain(created.checkinId);
    const keyed = await harness.world.api.post(VEHICLE_SEARCH, {}, { idempotencyKey: 'search-1' });
    const again = await harness.world.api.post(VEHICLE_SEARCH, {}, { idempotencyKey: 'search-1' });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(keyed.status).toBe(200);
  });

  it('refuses invalid bodies with 422 and a bad cursor with 400', async () => {
    for (const body of [
      { licensePlate: 'A/B' },
      { status: ['ON_BREAK'] },
      { limit: 0 },
      { limit: 201 },
      { from: 'yesterday' },
      { from: minutesAgo(10), to: minutesAgo(20) },
      { siteIds: ['1'] },
      { q: 'x' },
    ]) {
      expectProblem(await harness.world.api.post<Problem>(VEHICLE_SEARCH, body), 422, 'VALIDATION_FAILED');
    }
    for (const cursor of ['abc', Buffer.from('[1,2,-1]').toString('base64url')]) {
      expectProblem(
        await harness.world.api.post<Problem>(VEHICLE_SEARCH, { licensePlate: 'AB1', cursor }),
        400,
        'INVALID_QUERY',
      );
    }
  });

  it('needs vehicles:read; another account finds nothing of this one', async () => {
    const plate = uniquePlate('PRIV');
    await arrive(harness.world.api, harness.world.siteId, { licensePlate: plate });
    const people = await clientWith(harness.server, harness.world, ['checkins:read']);
    expectProblem(await people.post<Problem>(VEHICLE_SEARCH, {}), 403, 'INSUFFICIENT_SCOPE');
    const theirs = await harness.stranger.api.post<Page<VehicleCheckin>>(VEHICLE_SEARCH, { licensePlate: plate });
    expect(theirs.body).toEqual({ data: [], nextCursor: null });
    expectProblem(
      await harness.stranger.api.post<Problem>(VEHICLE_SEARCH, { siteIds: [harness.world.siteId] }),
      404,
      'NOT_FOUND',
    );
  });
});
