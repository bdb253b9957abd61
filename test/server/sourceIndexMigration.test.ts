import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../server/src/db/database';
import { up } from '../../server/src/db/migrations/0011_source_indexes';
import type { RunSql } from '../../server/src/db/migrations/types';
import { queryRows } from '../../server/src/db/query';
import { createTestDatabase } from '../support/database';

const sequelize = createDatabase({ url: await createTestDatabase(), poolMax: 2 });
afterAll(() => sequelize.close());

const run: RunSql = Object.assign((sql: string, bind?: unknown[]) => sequelize.query(sql, bind ? { bind } : {}), { warn: () => undefined });
const NAMES = ['person_checkins_entry_source', 'person_checkins_exit_source'];

const indexes = () =>
  queryRows<{ name: string; valid: boolean }>(
    { sequelize },
    `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = ANY($1::text[]) ORDER BY c.relname`,
    [NAMES],
  );

describe('migration 0011 (the source indexes)', () => {
  it('builds both indexes, again after a build that failed half way (left invalid) or never ran', async () => {
    expect(await indexes()).toEqual([{ name: NAMES[0], valid: true }, { name: NAMES[1], valid: true }]);
    // What a CREATE INDEX CONCURRENTLY interrupted by a crash leaves: the index, marked invalid (never used).
    await run(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = '${NAMES[0]}'::regclass`);
    await run(`DROP INDEX ${NAMES[1]}`);
    expect(await indexes()).toEqual([{ name: NAMES[0], valid: false }]);
    await up({ context: run });
    expect(await indexes()).toEqual([{ name: NAMES[0], valid: true }, { name: NAMES[1], valid: true }]);
    // And once more, with nothing to do.
    await up({ context: run });
    expect(await indexes()).toEqual([{ name: NAMES[0], valid: true }, { name: NAMES[1], valid: true }]);
  });
});
