import type { MigrationFn } from './types';

/**
 * Deliveries lose their foreign keys. Only the fan-out writes them, and it reads the event and the
 * subscription in that same statement; deleting a subscription deletes its deliveries in its own statement
 * (routes/webhooks). The keys checked it all again for every delivery row, each check a KEY SHARE lock on
 * the subscription's row that every dispatcher shares: a quarter of the fan-out's time, measured.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ALTER TABLE webhook_deliveries
      DROP CONSTRAINT webhook_deliveries_account_id_outbox_id_fkey,
      DROP CONSTRAINT webhook_deliveries_account_id_subscription_id_fkey;
  `);
};
