import type { ApiClient } from '../../../shared/src/client';
import type { KioskDatabase } from '../data/database';
import { type ReadingResult, applyServerReading } from '../data/serverReading';
import type { Pairing } from '../data/settings';
import { vehicleVisits } from '../data/visitKinds';
import { readVehicle } from './answers';

export interface RereadContext {
  db: KioskDatabase;
  api: ApiClient;
  siteId: number;
  /** What the kiosk was opened for: an answer that comes after the device was paired elsewhere writes nothing. */
  pairing?: Pairing;
  /** The device's own clock, which `syncedAt` is kept by (as the pull and the acknowledgements keep it). */
  now: () => number;
}

/**
 * The gate re-reads the one vehicle visit an event named (docs/event-stream-clients.md) and puts the server's
 * word into its view, unless the outbox or a newer answer wins (data/serverReading.ts). `failed`: no answer,
 * or none the kiosk can keep (gone from its window, a status newer than the kiosk): the caller pulls instead.
 */
export async function rereadVehicleVisit(ctx: RereadContext, checkinId: number): Promise<ReadingResult | 'failed'> {
  const startedAt = ctx.now();
  const outcome = await ctx.api.getVehicle(ctx.siteId, checkinId);
  if (outcome.kind !== 'ok') return 'failed';
  const reading = readVehicle(outcome.value);
  if (!reading.kept) return 'failed';
  return applyServerReading(
    ctx.db,
    vehicleVisits,
    { siteId: ctx.siteId, checkin: reading.checkin, startedAt, now: ctx.now() },
    ctx.pairing,
  );
}
