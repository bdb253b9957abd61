import { z } from 'zod';
import type { PersonVisitChangeAnswer } from '../../../shared/src/client';
import type { KioskDatabase } from '../data/database';
import { PEOPLE_FEED_CURSOR, recordPeoplePulledAt, stillPaired } from '../data/settings';
import { applySnapshot } from '../data/snapshot';
import type { KeptPersonCheckin, PersonVisit } from '../data/types';
import { personVisits } from '../data/visitKinds';
import { keptKioskPerson } from './answers';
import type { PullContext, PullResult } from './pull';

// Kept with the people, in the same transactions: the copy and its cursor never disagree.
const StoredCursor = z.object({ siteId: z.number().int(), cursor: z.string().min(1) });

async function readCursor(db: KioskDatabase, siteId: number): Promise<string | undefined> {
  const parsed = StoredCursor.safeParse((await db.meta.get(PEOPLE_FEED_CURSOR))?.value);
  return parsed.success && parsed.data.siteId === siteId ? parsed.data.cursor : undefined;
}

const writeCursor = (db: KioskDatabase, siteId: number, cursor: string) =>
  db.meta.put({ key: PEOPLE_FEED_CURSOR, value: StoredCursor.parse({ siteId, cursor }) });

/** A visit of the feed as the kiosk keeps it (the feed names no site: it is the kiosk's own). */
const keptOf = (siteId: number, change: PersonVisitChangeAnswer): KeptPersonCheckin =>
  keptKioskPerson({ ...change, siteId });

type Step = PullResult | 'cursorRefused';

/**
 * The first reading (no cursor): the visits on site, then the changes since the reading began, until the
 * feed has no more. Together they are the site as it is now, applied as the old full list was (a visit
 * held that is not in it has left), with the cursor and the time of the pull in the same transaction.
 */
async function firstReading(ctx: PullContext, siteId: number): Promise<Step> {
  const { db } = ctx;
  const startedAt = ctx.now();
  const latest = new Map<number, PersonVisitChangeAnswer>();
  let cursor: string | undefined;
  for (;;) {
    const outcome = await ctx.api.peopleChanges(siteId, cursor);
    ctx.onReachability(outcome.kind !== 'unreachable');
    if (outcome.kind !== 'ok') return 'failed';
    for (const change of outcome.value.data) latest.set(change.checkinId, change);
    cursor = outcome.value.nextCursor;
    if (!outcome.value.hasMore) break;
  }
  const items = [...latest.values()].filter((change) => change.status !== 'OUT').map((c) => keptOf(siteId, c));
  const kept = cursor;
  await db.transaction('rw', [db.outbox, db.people, db.meta], async () => {
    if (!(await applySnapshot(db, personVisits, { siteId, items, startedAt, now: ctx.now() }, ctx.pairing))) return;
    await writeCursor(db, siteId, kept);
    await recordPeoplePulledAt(db, siteId, startedAt);
  });
  return 'pulled';
}

/**
 * Applies one page of changes and the cursor after it in one transaction: the people and their cursor never
 * disagree. A visit with actions still in the outbox is left alone (their acknowledgements bring the server's
 * word); `OUT` lets a visit go; any other status puts it as it is now (an older word never replaces a newer
 * one: `withServer` keeps the newer). False when nothing was written: the device was paired elsewhere, or the
 * cursor is no longer the one the page was asked with.
 */
async function applyChanges(
  ctx: PullContext,
  siteId: number,
  page: { asked: string; changes: PersonVisitChangeAnswer[]; nextCursor: string; pulledAt?: number },
): Promise<boolean> {
  const { db } = ctx;
  return db.transaction('rw', [db.outbox, db.people, db.meta], async () => {
    if (ctx.pairing && !(await stillPaired(db, ctx.pairing))) return false;
    if ((await readCursor(db, siteId)) !== page.asked) return false;
    const actions = await db.outbox.toArray();
    const owing = new Set(actions.map((action) => action.visitId));
    const now = ctx.now();
    const writes: PersonVisit[] = [];
    const gone: string[] = [];
    for (const change of page.changes) {
      const checkin = keptOf(siteId, change);
      const visit = await db.people.where('serverId').equals(change.checkinId).first();
      if (visit) {
        if (owing.has(visit.visitId)) continue;
        if (change.status === 'OUT') gone.push(visit.visitId);
        else writes.push(personVisits.withServer(visit, checkin, [], now));
      } else if (change.status !== 'OUT' && !actions.some((action) => personVisits.madeBy(action, checkin))) {
        writes.push(personVisits.fromServer(checkin, now));
      }
    }
    await db.people.bulkPut(writes);
    await db.people.bulkDelete(gone);
    await writeCursor(db, siteId, page.nextCursor);
    if (page.pulledAt !== undefined) await recordPeoplePulledAt(db, siteId, page.pulledAt);
    return true;
  });
}

/** The changes after the stored cursor, page after page while the feed has more. */
async function changesSince(ctx: PullContext, siteId: number, cursor: string): Promise<Step> {
  const startedAt = ctx.now();
  let asked = cursor;
  for (;;) {
    const outcome = await ctx.api.peopleChanges(siteId, asked);
    ctx.onReachability(outcome.kind !== 'unreachable');
    if (outcome.kind === 'refused' && outcome.status === 400) return 'cursorRefused';
    if (outcome.kind !== 'ok') return 'failed';
    const { data, nextCursor, hasMore } = outcome.value;
    const pulledAt = hasMore ? undefined : startedAt;
    if (!(await applyChanges(ctx, siteId, { asked, changes: data, nextCursor, pulledAt }))) return 'failed';
    if (!hasMore) return 'pulled';
    asked = nextCursor;
  }
}

/**
 * Brings the kiosk's copy of its site's people up to date by the people feed (docs/api.md, People change
 * feed): an unchanged site costs one small request. The first pull (or one after the server refused the
 * stored cursor: a server restored from a backup) reads the site afresh.
 */
export async function pullPeopleFeed(ctx: PullContext, siteId: number): Promise<PullResult> {
  const cursor = await readCursor(ctx.db, siteId);
  if (cursor === undefined) return (await firstReading(ctx, siteId)) === 'pulled' ? 'pulled' : 'failed';
  const step = await changesSince(ctx, siteId, cursor);
  if (step !== 'cursorRefused') return step;
  console.warn(`People feed of site ${siteId}: the server refused the stored cursor; reading the site afresh.`);
  return (await firstReading(ctx, siteId)) === 'pulled' ? 'pulled' : 'failed';
}
