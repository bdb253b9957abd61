import type { Executor } from '../../server/src/db/query';

/** A transaction a test holds open across awaits (to hold locks while the server works), then ends. */
export interface HeldTransaction {
  db: Executor;
  commit: () => Promise<void>;
  rollback: () => Promise<void>;
}

/** Begins a transaction on a connection of its own, outside the server's request path. */
export async function holdTransaction(db: Executor): Promise<HeldTransaction> {
  const client = await db.pool.connect();
  let open = true;
  await client.query('BEGIN');
  const end = async (command: 'COMMIT' | 'ROLLBACK') => {
    if (!open) return;
    open = false;
    try {
      await client.query(command);
    } finally {
      client.release();
    }
  };
  return {
    db: { pool: db.pool, client, open: () => open },
    commit: () => end('COMMIT'),
    rollback: () => end('ROLLBACK'),
  };
}
