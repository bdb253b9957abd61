import type { VehicleStatus } from '../../../shared/src/domain';
import type { ApiClient, ListQuery } from '../../../shared/src/client';
import type { HttpOutcome } from '../../../shared/src/client/http';
import type { KioskDatabase } from '../data/database';
import { type Pairing, recordPeoplePulledAt } from '../data/settings';
import { applySnapshot } from '../data/snapshot';
import type { PersonVisit, VehicleVisit } from '../data/types';
import { type VisitKind, personVisits, vehicleVisits } from '../data/visitKinds';
import { type Reading, readKioskPerson, readVehicle } from './answers';

export interface PullContext {
  db: KioskDatabase;
  api: ApiClient;
  /** What the kiosk was opened for: a pull that ends after the device was paired elsewhere writes nothing. */
  pairing?: Pairing;
  now: () => number;
  onReachability: (reachable: boolean) => void;
}

export type PullResult = 'pulled' | 'failed';

const PAGE = 200;

/** Reads every page of a list, or nothing if any page fails (a partial list would drop people from the view). */
async function readAll<T>(
  ctx: PullContext,
  page: (cursor: string | undefined) => Promise<HttpOutcome<{ data: T[]; nextCursor: string | null }>>,
) {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const outcome = await page(cursor);
    ctx.onReachability(outcome.kind !== 'unreachable');
    if (outcome.kind !== 'ok') return undefined;
    items.push(...outcome.value.data);
    cursor = outcome.value.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

/**
 * Reads the site's list and merges it into the local view. What `read` does not keep (a vehicle visit in a
 * status newer than this kiosk; a person's is kept, see answers.ts) is left out and counted in the log: the
 * gate cannot show it with the right actions, and one such visit must not cost the rest of the list. Left
 * out, a visit the kiosk held leaves its view, as one the list no longer has (unless actions of it are queued).
 */
async function pull<V extends PersonVisit | VehicleVisit, C extends { checkinId: number; updatedAt: string }, A>(
  ctx: PullContext,
  kind: VisitKind<V, C>,
  siteId: number,
  page: (cursor: string | undefined) => Promise<HttpOutcome<{ data: A[]; nextCursor: string | null }>>,
  read: (answer: A) => Reading<C>,
  /** Written in the same transaction as the list, so the time recorded always dates the view shown. */
  recordPulled?: (startedAt: number) => Promise<void>,
): Promise<PullResult> {
  const startedAt = ctx.now();
  const answers = await readAll(ctx, page);
  if (!answers) return 'failed';
  const items: C[] = [];
  const newer: string[] = [];
  for (const answer of answers) {
    const reading = read(answer);
    if (reading.kept) items.push(reading.checkin);
    else newer.push(reading.status);
  }
  if (newer.length > 0) {
    console.warn(
      `Pull of site ${siteId}: left out ${newer.length} check-in(s) in a status this kiosk does not know (${[...new Set(newer)].join(', ')}).`,
    );
  }
  const { db, pairing } = ctx;
  await db.transaction('rw', [db.outbox, kind.table(db), db.meta], async () => {
    // A list applySnapshot drops (the device was paired elsewhere meanwhile) is not recorded as pulled either.
    if (await applySnapshot(db, kind, { siteId, items, startedAt, now: ctx.now() }, pairing))
      await recordPulled?.(startedAt);
  });
  return 'pulled';
}

const vehiclesOnSite: ListQuery<VehicleStatus>['status'] = ['IN', 'PENDING', 'STOP'];

/**
 * Refreshes the local view of the people on a site from the server's current state, and records when (the
 * time the list was asked for: the view is at least that current), so the Roll call can say how old it is.
 * The kiosk's own list: who is on site now and the last day's refusals, names without contact data.
 */
export function pullPeople(ctx: PullContext, siteId: number): Promise<PullResult> {
  return pull(
    ctx,
    personVisits,
    siteId,
    (cursor) => ctx.api.listKioskPeople(siteId, { limit: PAGE, cursor }),
    readKioskPerson,
    (startedAt) => recordPeoplePulledAt(ctx.db, siteId, startedAt),
  );
}

/** The same for vehicles at the gate. */
export function pullVehicles(ctx: PullContext, siteId: number): Promise<PullResult> {
  return pull(
    ctx,
    vehicleVisits,
    siteId,
    (cursor) => ctx.api.listVehicles(siteId, { status: vehiclesOnSite, limit: PAGE, cursor }),
    readVehicle,
  );
}
