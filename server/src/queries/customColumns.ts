import { standardFieldNames } from '../../../shared/src/schemas/sites';
import { type Executor, queryRows } from '../db/query';
import { empty, sql } from '../db/sql';

/** A custom-field column: its label, and the field names it stands for on the sites that ask it. */
export interface CustomColumn {
  label: string;
  names: string[];
}

/** The custom fields the sites ask for, one column per label, in the order the sites list them. */
export async function customColumns(
  db: Executor,
  accountId: number,
  siteIds: number[] | undefined,
): Promise<CustomColumn[]> {
  const rows = await queryRows<{ name: string; label: string }>(
    db,
    sql`
    SELECT f.field->>'name' AS name, f.field->>'label' AS label
      FROM sites s, jsonb_array_elements(s.checkin_config->'fields') WITH ORDINALITY AS f(field, position)
     WHERE s.account_id = ${accountId} ${siteIds === undefined ? empty : sql`AND s.id = ANY(${siteIds}::int[])`}
       AND jsonb_typeof(s.checkin_config->'fields') = 'array'
       AND NOT (f.field->>'name' = ANY(${[...standardFieldNames]}::text[]))
     ORDER BY s.id, f.position`,
  );
  const columns = new Map<string, CustomColumn>();
  for (const row of rows) {
    const column = columns.get(row.label) ?? { label: row.label, names: [] };
    if (!column.names.includes(row.name)) column.names.push(row.name);
    columns.set(row.label, column);
  }
  return [...columns.values()];
}
