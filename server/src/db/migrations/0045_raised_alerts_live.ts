import type { MigrationFn } from './types';

/**
 * Every raised alert reaches the console live (docs/api.md, Event stream). Migration 0030 published an
 * `alert` only for a visit that became STOP; the alerts of `raised_alerts` (a check-in on an older form, a
 * kiosk refusal, a pass not honoured) published none, so the console's Alerts showed them only at its next
 * read. A trigger, as 0030's are, so that no way of raising one (nor a later kind) can forget to publish: the
 * event commits with the alert, in its statement. It names the alert as `GET /v1/alerts` does: its kind and
 * its number there (the check-in's, or a kiosk refusal's own). A row the insert skipped (a kiosk's retry of
 * one refused request, ON CONFLICT DO NOTHING) is not in the statement's new rows, so it publishes nothing.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE FUNCTION raised_alerts_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO live_events (account_id, site_id, type, data)
      SELECT r.account_id, r.site_id, 'alert',
        jsonb_build_object('kind', r.kind, 'siteId', r.site_id,
          'checkinId', CASE r.kind WHEN 'kiosk' THEN r.id ELSE r.checkin_id END)
      FROM raised AS r ORDER BY r.site_id, r.id;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER raised_alerts_live AFTER INSERT ON raised_alerts
      REFERENCING NEW TABLE AS raised FOR EACH STATEMENT EXECUTE FUNCTION raised_alerts_live();
  `);
};
