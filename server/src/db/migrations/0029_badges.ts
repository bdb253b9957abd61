import type { MigrationFn } from './types';

/**
 * Visitor badges (docs/running-a-site.md, Badges): each site's badge settings (off until a manager turns
 * them on), and each person check-in's badge code, the random secret its badge's QR code carries so that a
 * kiosk checks out only the visit whose badge was scanned. Visits still on site get a code now, so their
 * badges can be printed; visits that have ended never get one (no badge is printed for them).
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ALTER TABLE sites
      ADD COLUMN badge_enabled boolean NOT NULL DEFAULT false,
      ADD COLUMN badge_size text NOT NULL DEFAULT '62x100' CHECK (badge_size IN ('62x100', '54x101', '89x36', 'A6'));

    ALTER TABLE person_checkins ADD COLUMN badge_code text;
    -- 122 random bits of a version 4 UUID, base64url without padding (22 characters).
    UPDATE person_checkins
      SET badge_code = rtrim(translate(encode(decode(replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/', '-_'), '=')
      WHERE status IN ('IN', 'ON_BREAK', 'PENDING');
  `);
};
