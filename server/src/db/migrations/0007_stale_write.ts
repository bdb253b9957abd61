import type { MigrationFn } from './types';

/**
 * A check-in transition is one statement: the state machine runs on a plain read, and the write (with its
 * event and Idempotency-Key record) applies only if the row is still the version that was read. When it is
 * not, the statement calls this function, which undoes all of it (the key's record too), and the command
 * runs again on the fresh row. SQLSTATE GH001: see server/src/idempotency/store.ts.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE FUNCTION gatehouse_stale_write() RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'the row changed since it was read; the statement is undone' USING ERRCODE = 'GH001';
    END $$;
  `);
};
