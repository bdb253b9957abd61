import type { MigrationFn } from './types';

/**
 * The spells each webhook subscription was enabled: from `enabled_at` until `disabled_at` (null: still
 * enabled). The fan-out gives a subscription the events that happened in one of its spells, whenever it
 * runs: an event of a disabled spell is not delivered even if the subscription is enabled again before the
 * event is fanned out, and an event from before a disable still is (parked until it is enabled again).
 * Before, the fan-out read `enabled` as it was when it ran, which was right only while it ran within moments
 * of the event: not after a dispatcher outage, nor now that the dispatcher holds new events back for a few
 * seconds while requests keep the process busy. A subscription that exists gets one spell from its
 * creation (until its last update, if it is disabled now): the best that is known of its past.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE TABLE webhook_subscription_periods (
      account_id integer NOT NULL,
      subscription_id integer NOT NULL,
      enabled_at timestamptz NOT NULL,
      disabled_at timestamptz,
      PRIMARY KEY (account_id, subscription_id, enabled_at),
      FOREIGN KEY (account_id, subscription_id) REFERENCES webhook_subscriptions (account_id, id) ON DELETE CASCADE,
      CHECK (disabled_at IS NULL OR disabled_at >= enabled_at)
    );
    -- At most one open spell per subscription.
    CREATE UNIQUE INDEX webhook_subscription_periods_open ON webhook_subscription_periods (account_id, subscription_id)
      WHERE disabled_at IS NULL;
    INSERT INTO webhook_subscription_periods (account_id, subscription_id, enabled_at, disabled_at)
    SELECT account_id, id, created_at, CASE WHEN enabled THEN NULL ELSE greatest(updated_at, created_at) END
    FROM webhook_subscriptions;
  `);
};
