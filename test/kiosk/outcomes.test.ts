// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { recordAttention, recordRetry } from '../../kiosk/src/data/outcomes';
import { checkIn } from '../../kiosk/src/data/personCommands';
import { personVisits } from '../../kiosk/src/data/visitKinds';

describe('outcomes written by a sync pass', () => {
  it('change an action only while it is the attempt they are for (same key, still queued)', async () => {
    const db = new KioskDatabase(`outcomes-${randomUUID()}`);
    await checkIn({ db, now: () => Date.now(), randomUUID }, 1, { person: { firstName: 'Late', lastName: 'Answer' } });
    const [sent] = await db.outbox.toArray();
    if (!sent) throw new Error('no action queued');
    const error = { status: 503, code: 'UNAVAILABLE', message: 'later' };

    // Meanwhile another pass took it further: a refusal, then a Retry that gave it a new key.
    await db.outbox.update(sent.seq, { key: 'key-of-the-retry', state: 'QUEUED', attempts: 0 });
    await recordRetry(db, sent, error, Date.now() + 60_000);
    await recordAttention(
      db,
      personVisits,
      sent,
      { status: 422, code: 'VALIDATION_FAILED', message: 'old answer' },
      undefined,
      Date.now(),
    );
    expect(await db.outbox.get(sent.seq)).toMatchObject({
      key: 'key-of-the-retry',
      state: 'QUEUED',
      attempts: 0,
      lastError: null,
    });

    // For the attempt it is for, each is written.
    const current = (await db.outbox.get(sent.seq))!;
    await recordRetry(db, current, error, Date.now() + 60_000);
    expect(await db.outbox.get(sent.seq)).toMatchObject({ attempts: 1, lastError: error });
    await recordAttention(
      db,
      personVisits,
      current,
      { status: 422, code: 'VALIDATION_FAILED', message: 'refused' },
      undefined,
      Date.now(),
    );
    expect(await db.outbox.get(sent.seq)).toMatchObject({
      state: 'ATTENTION',
      lastError: { code: 'VALIDATION_FAILED' },
    });
    db.close();
  });
});
