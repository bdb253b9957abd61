import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../server/src/db/database';
import { withDatabase } from '../../server/src/postgres/embeddedPostgres';
import { migrate, sqlRunner } from '../../server/src/db/migrate';
import { up } from '../../server/src/db/migrations/0011_source_indexes';
import { queryRows } from '../../server/src/db/query';
import { createTestDatabase } from '../support/database';
import { sql } from '../../server/src/db/sql';

const database = createDatabase({ url: await createTestDatabase(), poolMax: 2 });
afterAll(() => database.close());

const run = sqlRunner(database.pool, () => undefined);
const NAMES = ['person_checkins_entry_source', 'person_checkins_exit_source'];

const indexes = () =>
  queryRows<{ name: string; valid: boolean }>(
    database,
    sql`SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = ANY(${NAMES}::text[]) ORDER BY c.relname`,
  );

describe('migration 0011 (the source indexes)', () => {
  it('builds both indexes, again after a build that failed half way (left invalid) or never ran', async () => {
    expect(await indexes()).toEqual([
      { name: NAMES[0], valid: true },
      { name: NAMES[1], valid: true },
    ]);
    // What a CREATE INDEX CONCURRENTLY interrupted by a crash leaves: the index, marked invalid (never used).
    await run(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = '${NAMES[0]}'::regclass`);
    await run(`DROP INDEX ${NAMES[1]}`);
    expect(await indexes()).toEqual([{ name: NAMES[0], valid: false }]);
    await up({ context: run });
    expect(await indexes()).toEqual([
      { name: NAMES[0], valid: true },
      { name: NAMES[1], valid: true },
    ]);
    // And once more, with nothing to do.
    await up({ context: run });
    expect(await indexes()).toEqual([
      { name: NAMES[0], valid: true },
      { name: NAMES[1], valid: true },
    ]);
  });
});

describe('migrations run by two instances starting at once', () => {
  it("both start: the one that waits for the lock does not stall the other's concurrent index builds", async () => {
    const serverUrl = inject('pgServerUrl');
    const name = `fresh_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = withDatabase(serverUrl, name);
    const first = createDatabase({ url, poolMax: 2 });
    try {
      // Before, the second instance waited in pg_advisory_lock, holding a snapshot that migration 0011's
      // CREATE INDEX CONCURRENTLY waited for: one instance failed after the 30 s statement timeout.
      const started = Date.now();
      const applied = await Promise.all([migrate(url), migrate(url)]);
      expect(applied.map((names) => names.length).sort((a, b) => a - b)).toEqual([0, applied.flat().length]);
      expect(applied.flat()).toContain('0011_source_indexes');
      expect(Date.now() - started).toBeLessThan(25_000);
      const valid = await queryRows<{ valid: boolean }>(
        first,
        sql`SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ANY(${NAMES}::text[])`,
      );
      expect(valid).toEqual([{ valid: true }, { valid: true }]);
    } finally {
      await first.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => admin.end());
    }
  }, 60_000);
});
