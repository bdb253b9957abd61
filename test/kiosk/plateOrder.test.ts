// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { vehicleEntry, vehicleExit } from '../../kiosk/src/data/vehicleCommands';
import { sendableHeads } from '../../kiosk/src/sync/plateOrder';

/** A gate that saw `plate` enter, leave and enter again offline: the two visits' actions, queued in that order. */
async function cameBack(plate: string) {
  const db = new KioskDatabase(`plate-order-${randomUUID()}`);
  let clock = Date.now() - 3_600_000;
  const ctx = { db, now: () => (clock += 60_000), randomUUID };
  const first = await vehicleEntry(ctx, 1, plate);
  if (!first.ok) throw new Error(first.message);
  if (!(await vehicleExit(ctx, first.value.visitId)).ok) throw new Error('exit refused');
  const second = await vehicleEntry(ctx, 1, plate);
  if (!second.ok) throw new Error(second.message);
  return { db, first: first.value.visitId, second: second.value.visitId };
}

const kinds = async (db: KioskDatabase) => (await sendableHeads(db)).map((head) => head.kind);

describe('which visit heads may go now (plate order)', () => {
  it("a new entry waits while the plate's earlier visit still has a queued action, then goes", async () => {
    const { db, first } = await cameBack('PO 1');
    expect(await kinds(db)).toEqual(['VEHICLE_ENTRY']);
    // The first visit's entry acknowledged: its exit is now the head; the new entry still waits.
    const [entry] = await db.outbox.where('visitId').equals(first).sortBy('seq');
    await db.outbox.delete(entry!.seq);
    expect(await kinds(db)).toEqual(['VEHICLE_EXIT']);
    const [exit] = await db.outbox.where('visitId').equals(first).toArray();
    await db.outbox.delete(exit!.seq);
    expect(await kinds(db)).toEqual(['VEHICLE_ENTRY']);
    db.close();
  });

  it('an earlier action a person must look at (Needs attention) does not hold the new entry back', async () => {
    const { db, first, second } = await cameBack('PO 2');
    await db.outbox.where('visitId').equals(first).modify({ state: 'ATTENTION' });
    const heads = await sendableHeads(db);
    expect(heads.map((head) => [head.visitId, head.kind])).toEqual([
      [first, 'VEHICLE_ENTRY'],
      [second, 'VEHICLE_ENTRY'],
    ]);
    db.close();
  });

  it("an exit queued behind its refused entry does not hold the plate's new entry back; a Retry of the entry puts it back in line", async () => {
    const { db, first, second } = await cameBack('PO 5');
    const [entry, exit] = await db.outbox.where('visitId').equals(first).sortBy('seq');
    // The server refused the first entry: its exit stays queued behind it, and cannot go until a person acts.
    await db.outbox.update(entry!.seq, { state: 'ATTENTION' });
    expect(exit).toMatchObject({ kind: 'VEHICLE_EXIT', state: 'QUEUED' });
    const heads = await sendableHeads(db);
    expect(heads.map((head) => [head.visitId, head.kind])).toEqual([
      [first, 'VEHICLE_ENTRY'],
      [second, 'VEHICLE_ENTRY'],
    ]);
    // Retried, the first visit is on its way again: the new entry waits for its entry and exit, in order.
    await db.outbox.update(entry!.seq, { state: 'QUEUED' });
    expect((await sendableHeads(db)).map((head) => head.visitId)).toEqual([first]);
    db.close();
  });

  it('a refusal a Retry is meant to overcome (the token, the site access) keeps holding the new entry, so all go in order after it', async () => {
    const { db, first } = await cameBack('PO 6');
    const [entry] = await db.outbox.where('visitId').equals(first).sortBy('seq');
    for (const lastError of [
      { status: 401, code: 'UNAUTHENTICATED', message: 'Token revoked' },
      { status: 403, code: 'INSUFFICIENT_SCOPE', message: 'No scope' },
      { status: null, code: 'OCCURRED_AT_IN_FUTURE', message: 'Clock' },
    ]) {
      await db.outbox.update(entry!.seq, { state: 'ATTENTION', lastError });
      expect(
        (await sendableHeads(db)).map((head) => head.visitId),
        lastError.code,
      ).toEqual([first]);
    }
    // Final for that entry (refused as invalid): the new entry goes.
    await db.outbox.update(entry!.seq, {
      state: 'ATTENTION',
      lastError: { status: 422, code: 'VALIDATION_FAILED', message: 'Bad plate' },
    });
    expect(await sendableHeads(db)).toHaveLength(2);
    db.close();
  });

  it('another plate, or the same plate at another site, does not wait', async () => {
    const { db } = await cameBack('PO 3');
    const ctx = { db, now: () => Date.now(), randomUUID };
    expect((await vehicleEntry(ctx, 1, 'PO 4')).ok).toBe(true);
    expect((await vehicleEntry(ctx, 2, 'PO 3')).ok).toBe(true);
    expect(await kinds(db)).toEqual(['VEHICLE_ENTRY', 'VEHICLE_ENTRY', 'VEHICLE_ENTRY']);
    db.close();
  });
});
