import type { MigrationFn } from './types';

/**
 * The visitor's own phone (docs/api.md, Visit codes): every site gets a visit code, the random 10
 * characters its QR poster carries (the alphabet of pairing codes, 32 letters and digits that cannot be
 * mistaken for one another: 50 bits), made by the database so every way a site is made has one; and the
 * setting "QR check-ins need approval". A check-in made by phone keeps the SHA-256 of its visit key (the key
 * itself is only ever on the phone). Check-ins per client address and site are counted for an hour, so the
 * limit holds across instances; the address is kept only that long, and not with the visit.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE FUNCTION gatehouse_visit_code() RETURNS text LANGUAGE sql VOLATILE AS $$
      SELECT string_agg(substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZ', get_byte(random_bytes, position) % 32 + 1, 1), '' ORDER BY position)
      FROM (SELECT decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex') AS random_bytes) AS source,
           -- Bytes 6 and 8 of a version 4 UUID hold its version and variant: only its fully random bytes are used.
           unnest(ARRAY[0, 1, 2, 3, 4, 5, 7, 9, 10, 11]) AS position
    $$;

    ALTER TABLE sites
      ADD COLUMN visit_code text NOT NULL DEFAULT gatehouse_visit_code(),
      ADD COLUMN visit_requires_approval boolean NOT NULL DEFAULT false;
    -- Looked up by code alone (the code names the account), as API tokens are by their hash.
    CREATE UNIQUE INDEX sites_visit_code ON sites (visit_code);

    CREATE TABLE visit_keys (
      account_id integer NOT NULL,
      checkin_id bigint NOT NULL,
      site_id integer NOT NULL,
      key_hash bytea NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, checkin_id),
      FOREIGN KEY (account_id, checkin_id) REFERENCES person_checkins (account_id, id) ON DELETE CASCADE
    );
    CREATE UNIQUE INDEX visit_keys_hash ON visit_keys (account_id, site_id, key_hash);

    CREATE TABLE visit_address_checkins (
      account_id integer NOT NULL,
      site_id integer NOT NULL,
      address text NOT NULL,
      at timestamptz NOT NULL
    );
    CREATE INDEX visit_address_checkins_lookup ON visit_address_checkins (account_id, site_id, address, at);
  `);
};
