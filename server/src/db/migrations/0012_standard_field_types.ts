import { standardFieldNames } from '../../../../shared/src/schemas/sites';
import type { MigrationFn } from './types';

/**
 * A standard field (company, email, phone, hostName, purpose…) holds text in the create body. Until
 * 2026-11-22 a site's check-in form could still make one a checkbox; such a form can be met by no value (a
 * checkbox wants true or false, the request text), so a required one refused every check-in at its site, and
 * an optional one every check-in that filled it in. `PUT …/config` now refuses it; this puts the forms saved
 * before right: each such field becomes a text field with its label and `required` as they were, and the site's
 * `configVersion` moves on, so kiosks fetch the form again. The log names every site changed, for its
 * administrator to look at the field (most likely meant as a custom checkbox under another name).
 */
const CHECKBOX_STANDARD = `field->>'type' = 'checkbox' AND field->>'name' = ANY($1::text[])`;

export const up: MigrationFn = async ({ context: sql }) => {
  const [rows] = (await sql(
    `UPDATE sites s
     SET checkin_config = jsonb_set(s.checkin_config, '{fields}', (
           SELECT jsonb_agg(CASE WHEN ${CHECKBOX_STANDARD} THEN jsonb_set(field, '{type}', '"text"') ELSE field END ORDER BY position)
           FROM jsonb_array_elements(s.checkin_config->'fields') WITH ORDINALITY AS f(field, position))),
         config_version = s.config_version + 1,
         updated_at = now()
     WHERE jsonb_typeof(s.checkin_config->'fields') = 'array'
       AND EXISTS (SELECT 1 FROM jsonb_array_elements(s.checkin_config->'fields') AS f(field) WHERE ${CHECKBOX_STANDARD})
     RETURNING s.id::int AS site_id, s.account_id::int AS account_id`,
    [[...standardFieldNames]],
  )) as [Array<{ site_id: number; account_id: number }>];
  for (const row of rows) {
    sql.warn(
      'check-in form of a site: a standard field saved as a checkbox is now a text field (no check-in could fill it)',
      {
        siteId: row.site_id,
        accountId: row.account_id,
      },
    );
  }
};
