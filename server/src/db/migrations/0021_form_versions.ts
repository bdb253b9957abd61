import type { MigrationFn } from './types';

/**
 * Every version of a site's check-in form is kept, so a kiosk's check-in made on the form it showed (its
 * `formVersion`) can be checked against that form, not only the current one (docs/api.md, Form versions).
 * A trigger keeps them, as the webhook periods are kept: every path that writes `sites.checkin_config`
 * (the config PUT, a new site, a migration, a test's direct update) records its version without knowing.
 * Versions from before this migration are not known; each site's current one is. A check-in accepted on an
 * older form keeps which current fields it did not meet (`incomplete_fields`).
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE TABLE site_form_versions (
      account_id integer NOT NULL,
      site_id integer NOT NULL,
      version integer NOT NULL,
      checkin_config jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, site_id, version),
      FOREIGN KEY (account_id, site_id) REFERENCES sites (account_id, id) ON DELETE CASCADE
    );
    INSERT INTO site_form_versions (account_id, site_id, version, checkin_config, created_at)
    SELECT account_id, id, config_version, checkin_config, updated_at FROM sites;

    CREATE FUNCTION site_form_versions_keep() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- A form changed without its version moving on (a direct update) replaces that version's copy.
      INSERT INTO site_form_versions (account_id, site_id, version, checkin_config, created_at)
      VALUES (NEW.account_id, NEW.id, NEW.config_version, NEW.checkin_config, clock_timestamp())
      ON CONFLICT (account_id, site_id, version) DO UPDATE SET checkin_config = EXCLUDED.checkin_config;
      RETURN NULL;
    END $$;
    CREATE TRIGGER site_form_versions_on_insert AFTER INSERT ON sites
      FOR EACH ROW EXECUTE FUNCTION site_form_versions_keep();
    CREATE TRIGGER site_form_versions_on_change AFTER UPDATE OF checkin_config, config_version ON sites
      FOR EACH ROW WHEN (OLD.checkin_config IS DISTINCT FROM NEW.checkin_config OR OLD.config_version IS DISTINCT FROM NEW.config_version)
      EXECUTE FUNCTION site_form_versions_keep();

    ALTER TABLE person_checkins ADD COLUMN incomplete_fields text[];
  `);
};
