import type { MigrationFn } from './types';

/**
 * An invitation's language (docs/invitations.md, The email): the one its visitor's email is written in, as
 * reception chose it. Null (every invitation made before, and one made without a choice) means the site's
 * default language as it is when the email is queued.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ALTER TABLE invitations
      ADD COLUMN language text CHECK (language IN ('en', 'de', 'fr', 'es', 'zh', 'ar'));
  `);
};
