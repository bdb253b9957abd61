import { LockNamespace, lockUntilCommit } from '../db/advisoryLocks';
import type { Executor } from '../db/query';

/**
 * Serializes every write that gives a vehicle this (normalized) plate until commit, so an update checking
 * "is the plate free?" and a create racing it cannot both succeed (the loser sees the winner: 409).
 */
export async function lockPlate(db: Executor, accountId: number, plateNorm: string): Promise<void> {
  await lockUntilCommit(db, LockNamespace.VEHICLE_PLATE, accountId, plateNorm);
}
