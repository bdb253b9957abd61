import type { MigrationFn } from './types';

/**
 * The watchlist gets its own scope, `watchlist:manage`, so a kiosk token (on a public tablet) no longer
 * reads and edits it with `checkins:approve`. Integrators' tokens that managed it keep doing so: every
 * `API`-channel token with `checkins:approve` gains the new scope; `KIOSK`-channel tokens do not.
 *
 * Each account also gets the key its watchlist digest is hashed with (HMAC-SHA256, 32 bytes): from two
 * random UUIDs (gen_random_uuid draws from the server's strong random source), one per account.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    UPDATE api_tokens SET scopes = array_append(scopes, 'watchlist:manage')
    WHERE channel = 'API' AND 'checkins:approve' = ANY (scopes) AND NOT 'watchlist:manage' = ANY (scopes);

    ALTER TABLE accounts ADD COLUMN watchlist_digest_key bytea NOT NULL
      DEFAULT sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()));
  `);
};
