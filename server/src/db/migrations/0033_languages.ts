import type { MigrationFn } from './types';

/**
 * Languages (docs/languages.md): each site's default language, which its kiosks speak until a visitor
 * chooses another and its badges use when a check-in names none; and each person check-in's language, the
 * one its visitor read the form in (a kiosk sends it), so the badge is printed in it. Existing sites speak
 * English, as before; existing check-ins name none.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ALTER TABLE sites
      ADD COLUMN default_language text NOT NULL DEFAULT 'en'
        CHECK (default_language IN ('en', 'de', 'fr', 'es', 'zh', 'ar'));
    ALTER TABLE person_checkins
      ADD COLUMN language text CHECK (language IN ('en', 'de', 'fr', 'es', 'zh', 'ar'));
  `);
};
