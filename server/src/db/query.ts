import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/** Where a statement runs: the pool, or the transaction of the current command. */
export interface Executor {
  sequelize: Sequelize;
  transaction?: Transaction;
}

/** Runs one parameterized statement ($1, $2, …) and returns its rows (SELECT or … RETURNING). */
export async function queryRows<T extends object>(db: Executor, sql: string, bind: unknown[] = []): Promise<T[]> {
  return db.sequelize.query<T>(sql, {
    bind,
    type: QueryTypes.SELECT,
    transaction: db.transaction,
    raw: true,
  });
}

/** The first row of a statement, or undefined. */
export async function queryOne<T extends object>(db: Executor, sql: string, bind: unknown[] = []): Promise<T | undefined> {
  const rows = await queryRows<T>(db, sql, bind);
  return rows[0];
}
