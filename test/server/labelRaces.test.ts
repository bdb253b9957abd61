import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonLabel } from '../../shared/src/schemas/labels';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { VehicleLabel } from '../../shared/src/schemas/vehicles';
import { visitor } from '../support/factories';
import type { ApiResponse } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';

const harness = serverAndWorld();

const people = () => `/v1/sites/${harness.world.siteId}/checkins/people`;
let counter = 0;
const uniqueName = (prefix: string) => `${prefix} ${++counter} ${Math.random().toString(36).slice(2, 8)}`;

async function createLabel(): Promise<PersonLabel> {
  const response = await harness.world.api.post<PersonLabel>('/v1/labels/people', { name: uniqueName('Race') });
  expect(response.status).toBe(201);
  return response.body;
}

/** A connection of the test's own (outside the app's pool), to hold locks the app's statements meet. */
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: harness.server.databaseUrl });
  await client.connect();
  return client;
}

/** Check-ins of the account whose stored labels still name `labelId`. */
async function checkinsCarrying(labelId: number): Promise<number> {
  const client = await connect();
  try {
    const result = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM person_checkins WHERE account_id = $1 AND label_ids @> ARRAY[$2]::int[]',
      [harness.world.accountId, labelId],
    );
    return result.rows[0]?.n ?? -1;
  } finally {
    await client.end();
  }
}

/** Resolves once `request` settled, or once a statement containing `text` is waiting for a lock. */
async function settledOrWaiting(request: Promise<unknown>, text: string): Promise<void> {
  let settled = false;
  void request.then(
    () => (settled = true),
    () => (settled = true),
  );
  const client = await connect();
  try {
    for (let i = 0; i < 500 && !settled; i += 1) {
      const result = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
        [`%${text}%`],
      );
      if ((result.rows[0]?.n ?? 0) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (!settled) throw new Error(`neither settled nor waiting: ${text}`);
  } finally {
    await client.end();
  }
}
function expectUnknownLabel(response: ApiResponse<unknown>) {
  expect(response.status, response.text).toBe(422);
  const problem = response.body as Problem & { errors?: Array<{ path: string }> };
  expect(problem.code).toBe('VALIDATION_FAILED');
  expect(problem.errors?.map((error) => error.path)).toContain('labelIds');
}

/** What a user sees of the check-in now (not what the create answered). */
async function labelsNow(checkinId: number): Promise<number[]> {
  const response = await harness.world.api.get<PersonCheckin>(`${people()}/${checkinId}`);
  expect(response.status).toBe(200);
  return response.body.labelIds;
}

describe('deleting a person label while check-ins are created with it', () => {
  it('a create already writing when the DELETE starts loses the label once the DELETE returns', async () => {
    const label = await createLabel();
    const holder = await connect();
    try {
      // Holds the create's insert at its site reference: it has passed every label check, not committed.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM sites WHERE account_id = $1 AND id = $2 FOR UPDATE', [
        harness.world.accountId,
        harness.world.siteId,
      ]);
      const create = harness.world.api.post<PersonCheckin>(
        people(),
        visitor('Held', 'Create', { labelIds: [label.labelId] }),
      );
      await settledOrWaiting(create, 'INSERT INTO person_checkins');
      const remove = harness.world.api.delete(`/v1/labels/people/${label.labelId}`);
      await settledOrWaiting(remove, 'person_labels');
      await holder.query('COMMIT');
      const [created, removed] = await Promise.all([create, remove]);
      expect(removed.status).toBe(204);
      expect(created.status).toBe(201);
      expect(await labelsNow(created.body.checkinId)).not.toContain(label.labelId);
      expect(await checkinsCarrying(label.labelId)).toBe(0);
    } finally {
      await holder.end();
    }
  });

  it('a create that starts while the DELETE is running is refused like an unknown label', async () => {
    const label = await createLabel();
    const tagged = await harness.world.api.post<PersonCheckin>(
      people(),
      visitor('Tagged', 'Before', { labelIds: [label.labelId] }),
    );
    expect(tagged.status).toBe(201);
    const holder = await connect();
    try {
      // Holds the DELETE at the untagging of an existing check-in, so it runs (uncommitted) while the create comes.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM person_checkins WHERE account_id = $1 AND id = $2 FOR UPDATE', [
        harness.world.accountId,
        tagged.body.checkinId,
      ]);
      const remove = harness.world.api.delete(`/v1/labels/people/${label.labelId}`);
      await settledOrWaiting(remove, 'array_remove');
      const create = harness.world.api.post<PersonCheckin>(
        people(),
        visitor('Late', 'Create', { labelIds: [label.labelId] }),
      );
      await settledOrWaiting(create, 'INSERT INTO person_checkins');
      await holder.query('COMMIT');
      const [removed, created] = await Promise.all([remove, create]);
      expect(removed.status).toBe(204);
      expectUnknownLabel(created);
      expect(await labelsNow(tagged.body.checkinId)).toEqual([]);
      expect(await checkinsCarrying(label.labelId)).toBe(0);
    } finally {
      await holder.end();
    }
  });

  it('under a burst of creates, no check-in keeps a deleted label (several rounds)', async () => {
    for (let round = 0; round < 8; round += 1) {
      const label = await createLabel();
      const other = await createLabel();
      const creates = Array.from({ length: 24 }, (_, i) =>
        harness.world.api.post<PersonCheckin>(
          people(),
          visitor('Burst', `R${round}N${i}`, { labelIds: [other.labelId, label.labelId] }),
          // Half go through the Idempotency-Key path, half without a key.
          i % 2 === 0 ? { idempotencyKey: `label-race-${round}-${i}-${Math.random()}` } : {},
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 3 + round * 2));
      const removed = await harness.world.api.delete(`/v1/labels/people/${label.labelId}`);
      expect(removed.status).toBe(204);
      // The DELETE has returned: from now on nothing may carry the label, whatever is still in flight.
      const results = await Promise.all(creates);
      for (const result of results) {
        if (result.status === 201) {
          expect(await labelsNow(result.body.checkinId)).toEqual([other.labelId]);
        } else {
          expectUnknownLabel(result);
        }
      }
      expect(await checkinsCarrying(label.labelId)).toBe(0);
      const gone = await harness.world.api.get(`/v1/labels/people/${label.labelId}`);
      expect(gone.status).toBe(404);
    }
  });
});

describe('renaming a label that does not exist', () => {
  it('person label: 404, even when another label has the name', async () => {
    const taken = await createLabel();
    const renamed = await harness.world.api.patch<Problem>('/v1/labels/people/99999999', {
      name: taken.name.toUpperCase(),
    });
    expect(renamed.status).toBe(404);
    expect(renamed.body.code).toBe('NOT_FOUND');

    const deleted = await createLabel();
    expect((await harness.world.api.delete(`/v1/labels/people/${deleted.labelId}`)).status).toBe(204);
    const again = await harness.world.api.patch<Problem>(`/v1/labels/people/${deleted.labelId}`, { name: taken.name });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
  });

  it('person label: an existing label still gets 409 for a taken name, and may keep its own', async () => {
    const taken = await createLabel();
    const mine = await createLabel();
    const clash = await harness.world.api.patch<Problem & { current?: PersonLabel }>(
      `/v1/labels/people/${mine.labelId}`,
      { name: taken.name },
    );
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('LABEL_NAME_TAKEN');
    expect(clash.body.current?.labelId).toBe(taken.labelId);
    const own = await harness.world.api.patch<PersonLabel>(`/v1/labels/people/${mine.labelId}`, {
      name: mine.name.toUpperCase(),
    });
    expect(own.status).toBe(200);
    expect(own.body.name).toBe(mine.name.toUpperCase());
  });

  it('vehicle label: 404, even when another label has the name', async () => {
    const taken = await harness.world.api.post<VehicleLabel>('/v1/labels/vehicles', { name: uniqueName('Vehicle') });
    expect(taken.status).toBe(201);
    const renamed = await harness.world.api.patch<Problem>('/v1/labels/vehicles/99999999', { name: taken.body.name });
    expect(renamed.status).toBe(404);
    expect(renamed.body.code).toBe('NOT_FOUND');
  });
});

describe('label names that only the lower() of PostgreSQL makes equal', () => {
  it('racing creates of them get 201 and 409, never a unique-index 500', async () => {
    // JavaScript lowers a final capital sigma to ς, PostgreSQL's lower() to σ: the name's lock must be
    // taken on what the unique index compares, or both creates pass the check and one breaks the index.
    const suffix = Math.random().toString(36).slice(2, 6);
    const names = [`ΟΔΟΣ ${suffix.toUpperCase()}`, `οδοσ ${suffix}`];
    // Both creates are held at their insert (the table is share-locked), after whatever lock and check
    // each could take, then let go together.
    const holder = await connect();
    let answers: Array<ApiResponse<PersonLabel>>;
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE person_labels IN SHARE MODE');
      const racing = Promise.all(
        names.map((name) => harness.world.api.post<PersonLabel>('/v1/labels/people', { name })),
      );
      // Both are waiting (at the insert, or one at the name's lock) before they are let go: on a loaded machine a
      // fixed pause could end before they got there, and the creates would not race at all.
      await expect
        .poll(
          async () =>
            (
              await holder.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
              )
            ).rows[0]?.n,
        )
        .toBe(2);
      await holder.query('COMMIT');
      answers = await racing;
    } finally {
      await holder.end();
    }
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });
});
