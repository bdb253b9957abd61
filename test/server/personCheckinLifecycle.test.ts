import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';

const harness = serverAndWorld();

const people = () => `/v1/sites/${harness.world.siteId}/checkins/people`;

async function checkIn(body: unknown = visitor()): Promise<PersonCheckin> {
  const response = await harness.world.api.post<PersonCheckin>(people(), body);
  expect(response.status).toBe(201);
  return response.body;
}

describe('a visit: create, break, end, checkout', () => {
  it('walks IN → ON_BREAK → IN → OUT with the full break history', async () => {
    const created = await checkIn(visitor('Ada', 'Lovelace', { hostName: 'Grace', purpose: 'Meeting' }));
    expect(created).toMatchObject({
      siteId: harness.world.siteId,
      status: 'IN',
      hostName: 'Grace',
      entry: { source: 'API' },
      exit: null,
      breaks: [],
    });
    const item = `${people()}/${created.checkinId}`;

    const started = await harness.world.api.post<PersonCheckin>(`${item}/breaks/start`);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('ON_BREAK');
    expect(started.body.breaks).toHaveLength(1);
    expect(started.body.breaks[0]?.endedAt).toBeNull();

    const ended = await harness.world.api.put<PersonCheckin>(`${item}/breaks/end`);
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('IN');
    expect(ended.body.breaks[0]?.endedAt).not.toBeNull();

    const again = await harness.world.api.post<PersonCheckin>(`${item}/breaks/start`, {});
    expect(again.body.breaks).toHaveLength(2);
    const endedByPost = await harness.world.api.post<PersonCheckin>(`${item}/breaks/end`, {});
    expect(endedByPost.body.status).toBe('IN');

    const out = await harness.world.api.patch<PersonCheckin>(item, { exit: { source: 'MANUAL' } });
    expect(out.status).toBe(200);
    expect(out.body.status).toBe('OUT');
    expect(out.body.exit).toMatchObject({ source: 'MANUAL' });
    expect(out.body.breaks.map((b) => b.breakId)).toEqual(
      [...out.body.breaks.map((b) => b.breakId)].sort((a, b) => a - b),
    );

    const read = await harness.world.api.get<PersonCheckin>(item);
    expect(read.body).toEqual(out.body);
  });

  it('closes an open break in the same request as the checkout', async () => {
    const created = await checkIn();
    const item = `${people()}/${created.checkinId}`;
    await harness.world.api.post(`${item}/breaks/start`);
    const out = await harness.world.api.post<PersonCheckin>(`${item}/checkout`);
    expect(out.status).toBe(200);
    expect(out.body.status).toBe('OUT');
    expect(out.body.breaks[0]?.endedAt).toBe(out.body.exit?.at);
    expect(out.body.exit?.source).toBe('API');
  });

  it('accepts checkout by PATCH on …/checkout too', async () => {
    const created = await checkIn();
    const out = await harness.world.api.patch<PersonCheckin>(`${people()}/${created.checkinId}/checkout`, {});
    expect(out.body.status).toBe('OUT');
  });
});

describe('state conflicts are 409 with the check-in as current', () => {
  it('refuses a second break start, and ending a break that is not open', async () => {
    const created = await checkIn();
    const item = `${people()}/${created.checkinId}`;
    const noBreak = await harness.world.api.post<Problem>(`${item}/breaks/end`);
    expect(noBreak.status).toBe(409);
    expect(noBreak.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(noBreak.body).toMatchObject({ code: 'NO_OPEN_BREAK', status: 409, instance: `${item}/breaks/end` });
    expect((noBreak.body.current as PersonCheckin).status).toBe('IN');

    // Ending again, in either form the interface writes (PUT and POST): 409.
    await harness.world.api.post(`${item}/breaks/start`);
    expect((await harness.world.api.put(`${item}/breaks/end`)).status).toBe(200);
    const endedAgain = await harness.world.api.put<Problem>(`${item}/breaks/end`);
    expect(endedAgain.body).toMatchObject({ code: 'NO_OPEN_BREAK', status: 409 });

    await harness.world.api.post(`${item}/breaks/start`);
    const twice = await harness.world.api.post<Problem>(`${item}/breaks/start`);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('BREAK_ALREADY_OPEN');
    expect((twice.body.current as PersonCheckin).status).toBe('ON_BREAK');
  });

  it('refuses breaks and checkouts after OUT with CHECKIN_CLOSED', async () => {
    const created = await checkIn();
    const item = `${people()}/${created.checkinId}`;
    await harness.world.api.patch(item, {});
    for (const [method, path] of [
      ['POST', `${item}/breaks/start`],
      ['POST', `${item}/breaks/end`],
      ['PUT', `${item}/breaks/end`],
      ['PATCH', item],
      ['POST', `${item}/checkout`],
      ['PATCH', `${item}/checkout`],
    ] as const) {
      const response = await harness.world.api.request<Problem>(method, path);
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('CHECKIN_CLOSED');
      expect(response.body.current).toMatchObject({ checkinId: created.checkinId, status: 'OUT' });
    }
  });

  it('approve and deny only a pending check-in (NOT_PENDING otherwise)', async () => {
    const created = await checkIn();
    const response = await harness.world.api.post<Problem>(`${people()}/${created.checkinId}/approve`);
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('NOT_PENDING');
    expect(response.body.current).toMatchObject({ checkinId: created.checkinId, status: 'IN' });
    const deny = await harness.world.api.post<Problem>(`${people()}/${created.checkinId}/deny`, { reason: 'no' });
    expect(deny.body.code).toBe('NOT_PENDING');
    expect(deny.body.current).toMatchObject({ checkinId: created.checkinId, status: 'IN' });
  });
});

describe('approval flow', () => {
  it('creates PENDING when the site requires approval; approve → IN, deny → STOP; no breaks until admitted', async () => {
    const config = await harness.world.api.get<{ fields: unknown[] }>(`${people()}/config`);
    const put = await harness.world.api.put(`${people()}/config`, {
      requiresApproval: true,
      fields: config.body.fields,
    });
    expect(put.status).toBe(200);
    try {
      const first = await checkIn();
      expect(first.status).toBe('PENDING');
      const early = await harness.world.api.post<Problem>(`${people()}/${first.checkinId}/breaks/start`);
      expect(early.status).toBe(409);
      expect(early.body.code).toBe('CHECKIN_NOT_ADMITTED');
      expect(early.body.current).toMatchObject({ checkinId: first.checkinId, status: 'PENDING' });
      // Every break action waits for the admission, and a time out of range is refused on the decision too.
      const endPending = await harness.world.api.post<Problem>(`${people()}/${first.checkinId}/breaks/end`);
      expect(endPending.body).toMatchObject({ code: 'CHECKIN_NOT_ADMITTED', current: { status: 'PENDING' } });
      const approveLate = await harness.world.api.post<Problem>(`${people()}/${first.checkinId}/approve`, {
        occurredAt: new Date(Date.now() + 6 * 60_000).toISOString(),
      });
      expect(approveLate.body.code).toBe('OCCURRED_AT_OUT_OF_RANGE');
      const approved = await harness.world.api.post<PersonCheckin>(`${people()}/${first.checkinId}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.status).toBe('IN');

      const second = await checkIn();
      const denied = await harness.world.api.post<PersonCheckin>(`${people()}/${second.checkinId}/deny`, {
        reason: 'No appointment',
      });
      expect(denied.body).toMatchObject({ status: 'STOP', denyReason: 'No appointment' });
      const endStop = await harness.world.api.post<Problem>(`${people()}/${second.checkinId}/breaks/end`);
      expect(endStop.body.code).toBe('CHECKIN_NOT_ADMITTED');
      const startStop = await harness.world.api.post<Problem>(`${people()}/${second.checkinId}/breaks/start`);
      expect(startStop.body).toMatchObject({ code: 'CHECKIN_NOT_ADMITTED', current: { status: 'STOP' } });
      const out = await harness.world.api.patch<PersonCheckin>(`${people()}/${second.checkinId}`, {});
      expect(out.body.status).toBe('OUT');
    } finally {
      await harness.world.api.put(`${people()}/config`, { requiresApproval: false, fields: config.body.fields });
    }
  });
});

describe('occurredAt (offline timing)', () => {
  it('records a past occurredAt as entry.at and clamps later events that claim to be earlier', async () => {
    const entry = new Date(Date.now() - 3_600_000).toISOString();
    const created = await checkIn(visitor('Off', 'Line', { occurredAt: entry }));
    expect(created.entry.at).toBe(entry);
    const item = `${people()}/${created.checkinId}`;
    const earlier = new Date(Date.now() - 7_200_000).toISOString();
    const started = await harness.world.api.post<PersonCheckin>(`${item}/breaks/start`, { occurredAt: earlier });
    expect(started.status).toBe(200);
    expect(started.body.breaks[0]?.startedAt).toBe(entry);
  });

  it('refuses times more than 5 minutes ahead or 7 days back (422 OCCURRED_AT_OUT_OF_RANGE)', async () => {
    const future = new Date(Date.now() + 6 * 60_000).toISOString();
    const old = new Date(Date.now() - 8 * 86_400_000).toISOString();
    for (const occurredAt of [future, old]) {
      const response = await harness.world.api.post<Problem>(people(), visitor('T', 'Ime', { occurredAt }));
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('OCCURRED_AT_OUT_OF_RANGE');
    }
    const created = await checkIn();
    const item = `${people()}/${created.checkinId}`;
    const response = await harness.world.api.patch<Problem>(item, { occurredAt: future });
    expect(response.body.code).toBe('OCCURRED_AT_OUT_OF_RANGE');
    // The break actions too (each where its state allows it), and nothing changes.
    const startOld = await harness.world.api.post<Problem>(`${item}/breaks/start`, { occurredAt: old });
    expect(startOld.body.code).toBe('OCCURRED_AT_OUT_OF_RANGE');
    expect((await harness.world.api.get<PersonCheckin>(item)).body).toMatchObject({ status: 'IN', breaks: [] });
    expect((await harness.world.api.post(`${item}/breaks/start`)).status).toBe(200);
    const endFuture = await harness.world.api.post<Problem>(`${item}/breaks/end`, { occurredAt: future });
    expect(endFuture.body.code).toBe('OCCURRED_AT_OUT_OF_RANGE');
    expect((await harness.world.api.get<PersonCheckin>(item)).body.status).toBe('ON_BREAK');
  });
});
