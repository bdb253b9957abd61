import type { MigrationFn } from './types';

/**
 * Notifications and Approve/Deny links were kept for good (docs/privacy.md, What is kept). The purge job
 * (jobs/notificationPurge.ts) deletes finished notifications past their retention, account by account,
 * oldest first: this index is its walk.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE INDEX notifications_finished_age ON notifications (account_id, created_at, id) WHERE status <> 'pending';
  `);
};
