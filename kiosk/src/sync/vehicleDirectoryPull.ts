import { z } from 'zod';
import type { VehicleChanges } from '../../../shared/src/schemas/vehicles';
import type { KioskDatabase } from '../data/database';
import { stillPaired } from '../data/settings';
import { VEHICLE_DIRECTORY_CURSOR, clearVehicleDirectory } from '../data/vehicleDirectory';
import type { PullContext, PullResult } from './pull';

const StoredCursor = z.string().min(1);

async function readCursor(db: KioskDatabase): Promise<string | undefined> {
  const parsed = StoredCursor.safeParse((await db.meta.get(VEHICLE_DIRECTORY_CURSOR))?.value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Applies one page of changes, and the cursor after it, in one transaction: the copy and its cursor never
 * disagree. Nothing is written when the device was paired elsewhere meanwhile, or when the cursor is no
 * longer the one the page was asked with (the copy was dropped meanwhile). False then.
 */
async function applyPage(ctx: PullContext, asked: string | undefined, page: VehicleChanges): Promise<boolean> {
  const { db } = ctx;
  return db.transaction('rw', [db.knownVehicles, db.vehicleLabels, db.meta], async () => {
    if (ctx.pairing && !(await stillPaired(db, ctx.pairing))) return false;
    if ((await readCursor(db)) !== asked) return false;
    await db.knownVehicles.bulkDelete(page.removedVehicleIds);
    await db.knownVehicles.bulkPut(page.vehicles);
    await db.vehicleLabels.bulkDelete(page.removedLabelIds);
    await db.vehicleLabels.bulkPut(page.labels);
    await db.meta.put({ key: VEHICLE_DIRECTORY_CURSOR, value: page.nextCursor });
    return true;
  });
}

/**
 * Brings the local copy of the account's registered vehicles and labels up to date: the changes since the
 * stored cursor, page after page while the server has more. A cursor the server no longer takes (400: a
 * token of another account, a server restored from a backup) drops the copy, which is pulled again whole.
 */
export async function pullVehicleDirectory(ctx: PullContext): Promise<PullResult> {
  const { db, api } = ctx;
  let restarted = false;
  for (;;) {
    const cursor = await readCursor(db);
    const outcome = await api.vehicleChanges(cursor);
    ctx.onReachability(outcome.kind !== 'unreachable');
    if (outcome.kind === 'refused' && outcome.status === 400 && cursor !== undefined && !restarted) {
      console.warn(
        `Vehicle directory: the server refused the stored cursor (${outcome.problem?.detail ?? 'no detail'}); pulling it again whole.`,
      );
      restarted = true;
      await db.transaction('rw', [db.knownVehicles, db.vehicleLabels, db.meta], () => clearVehicleDirectory(db));
      continue;
    }
    if (outcome.kind !== 'ok') return 'failed';
    if (!(await applyPage(ctx, cursor, outcome.value))) return 'failed';
    if (!outcome.value.hasMore) return 'pulled';
  }
}
