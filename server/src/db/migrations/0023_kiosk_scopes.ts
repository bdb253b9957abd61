import type { MigrationFn } from './types';

/**
 * Each kiosk's token carries only what its mode does (docs/api.md, Scopes): the §16 set (read and write
 * check-ins and vehicles, approve) becomes `kiosk:visitor` or `kiosk:gate`. A token of a kiosk takes its
 * kiosk's mode. A `KIOSK` token made with the management API has no kiosk and so no mode: it gets the
 * kiosk scope of each job its scopes did (check people in: visitor; vehicles: gate), so a running device
 * keeps working, and loses approving people, editing vehicles and labels, and reading history.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    UPDATE api_tokens t
    SET scopes = ARRAY[CASE k.mode WHEN 'gate' THEN 'kiosk:gate' ELSE 'kiosk:visitor' END]
    FROM kiosks k
    WHERE t.channel = 'KIOSK' AND k.account_id = t.account_id AND k.token_id = t.id;

    UPDATE api_tokens t
    SET scopes = array_remove(ARRAY[
        CASE WHEN 'checkins:write' = ANY (t.scopes) THEN 'kiosk:visitor' END,
        CASE WHEN 'vehicles:write' = ANY (t.scopes) THEN 'kiosk:gate' END], NULL)
    WHERE t.channel = 'KIOSK'
      AND NOT EXISTS (SELECT 1 FROM kiosks k WHERE k.account_id = t.account_id AND k.token_id = t.id);
  `);
};
