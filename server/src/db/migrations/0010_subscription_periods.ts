import type { MigrationFn } from './types';

/**
 * The spells each webhook subscription was enabled: from `enabled_at` until `disabled_at` (null: still
 * enabled). The fan-out gives a subscription the events that happened in one of its spells, whenever it
 * runs: an event of a disabled spell is not delivered even if the subscription is enabled again before the
 * event is fanned out, and an event from before a disable still is (parked until it is enabled again).
 * Before, the fan-out read `enabled` as it was when it ran, which was right only while it ran within moments
 * of the event: not after a dispatcher outage, nor now that the dispatcher holds new events back for a few
 * seconds while requests keep the process busy.
 *
 * A trigger keeps the spells, on every insert and every change of `enabled`, so every writer does, whatever
 * its version (as the outbox queue's trigger does), and each boundary is the database's time of the change.
 * A subscription that exists gets one spell from its creation (until its last update, if it is disabled
 * now): the best that is known of its past.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE TABLE webhook_subscription_periods (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id integer NOT NULL,
      subscription_id integer NOT NULL,
      enabled_at timestamptz NOT NULL,
      disabled_at timestamptz,
      FOREIGN KEY (account_id, subscription_id) REFERENCES webhook_subscriptions (account_id, id) ON DELETE CASCADE,
      CHECK (disabled_at IS NULL OR disabled_at >= enabled_at)
    );
    -- The fan-out reads the latest spell that began before an event.
    CREATE INDEX webhook_subscription_periods_lookup ON webhook_subscription_periods (account_id, subscription_id, enabled_at DESC);
    INSERT INTO webhook_subscription_periods (account_id, subscription_id, enabled_at, disabled_at)
    SELECT account_id, id, created_at, CASE WHEN enabled THEN NULL ELSE greatest(updated_at, created_at) END
    FROM webhook_subscriptions;

    CREATE FUNCTION webhook_subscription_periods_keep() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        -- Whatever spell is open ends now (also one left open by an earlier bug or a direct update).
        UPDATE webhook_subscription_periods SET disabled_at = greatest(clock_timestamp(), enabled_at)
        WHERE account_id = NEW.account_id AND subscription_id = NEW.id AND disabled_at IS NULL;
      END IF;
      IF NEW.enabled THEN
        INSERT INTO webhook_subscription_periods (account_id, subscription_id, enabled_at)
        VALUES (NEW.account_id, NEW.id, CASE WHEN TG_OP = 'INSERT' THEN least(NEW.created_at, clock_timestamp()) ELSE clock_timestamp() END);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER webhook_subscription_periods_on_insert AFTER INSERT ON webhook_subscriptions
      FOR EACH ROW EXECUTE FUNCTION webhook_subscription_periods_keep();
    CREATE TRIGGER webhook_subscription_periods_on_enable AFTER UPDATE OF enabled ON webhook_subscriptions
      FOR EACH ROW WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled) EXECUTE FUNCTION webhook_subscription_periods_keep();
  `);
};
