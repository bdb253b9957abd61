import type { MigrationFn } from './types';

/**
 * The management API's writes (ADMIN_TOKEN) are audited too: their actor is the operator, who is neither a
 * staff user nor a token of the account (docs/api.md, Audit log).
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check;
    ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check CHECK (actor_type IN ('user', 'token', 'operator'));
  `);
};
