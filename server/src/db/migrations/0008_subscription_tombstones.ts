import type { MigrationFn } from './types';

/**
 * Deleting a webhook subscription no longer deletes its delivery log in the request: the subscription goes
 * (nothing of it can be sent, claimed or read from then on) and leaves a tombstone, and the retention job
 * deletes the log behind it in small batches (server/src/webhooks/logRetention.ts). A log may hold a month
 * of deliveries; deleting it row by row held the request, and the rows' locks, for as long as that took.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE TABLE webhook_subscription_tombstones (
      account_id integer NOT NULL,
      subscription_id integer NOT NULL,
      deleted_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, subscription_id)
    );
  `);
};
