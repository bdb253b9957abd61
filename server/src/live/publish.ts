import type { z } from 'zod';
import { type ChangeEventType, changeEventData } from '../../../shared/src/schemas/events';
import { type Executor, queryRows } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';

/** What a command may publish (`vehicles` is the vehicle feed's own trigger's: migration 0030). */
export type PublishedType = Exclude<ChangeEventType, 'vehicles'>;

/** One change for the event stream: the account and site it belongs to (null: the whole account), its type and data. */
export type PublishedEvent = {
  [T in PublishedType]: {
    accountId: number;
    siteId: number | null;
    type: T;
    data: z.input<(typeof changeEventData)[T]>;
  };
}[PublishedType];

/** The event's data as its schema keeps it: ids and states only, any other field dropped (no name can leak). */
function dataOf(event: PublishedEvent): unknown {
  return changeEventData[event.type].parse(event.data);
}

/**
 * Publishes changes to every client that may see them (docs/api.md, Event stream). Call it with the
 * command's transaction (`ctx.db` of a write), so that the events commit with the change or not at all;
 * every instance streams them to its clients once the transaction commits. Person and vehicle visits,
 * site forms, the vehicle feed and raised alerts publish by themselves (database triggers, migrations 0030
 * and 0045): only other changes need this.
 */
export async function publishEvent(db: Executor, ...events: PublishedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await queryRows(
    db,
    sql`INSERT INTO live_events (account_id, site_id, type, data)
        SELECT e.account_id, e.site_id, e.type, e.data
        FROM jsonb_to_recordset(${JSON.stringify(events.map(rowOf))}::jsonb)
          AS e(account_id integer, site_id integer, type text, data jsonb, ord integer)
        ORDER BY e.ord`,
  );
}

const rowOf = (event: PublishedEvent, ord: number) => ({
  account_id: event.accountId,
  site_id: event.siteId,
  type: event.type,
  data: dataOf(event),
  ord,
});

/**
 * The same as a CTE named `published_live_events`, for statement-mode writes (one statement: `reply.ts`,
 * GuardedWrite): append it to the write's CTEs; `onlyIf` holds the events back when the change did not
 * happen. Its name is one no caller's own CTE is likely to take (it was `live`, a word this code uses for
 * tokens and kiosks not revoked). Once per statement (a second would repeat the name): one call, every event.
 */
export function publishEventCte(events: PublishedEvent[], onlyIf?: Sql): Sql {
  return sql`published_live_events AS (
    INSERT INTO live_events (account_id, site_id, type, data)
    SELECT e.account_id, e.site_id, e.type, e.data
    FROM jsonb_to_recordset(${JSON.stringify(events.map(rowOf))}::jsonb)
      AS e(account_id integer, site_id integer, type text, data jsonb, ord integer)
    ${onlyIf ? sql`WHERE ${onlyIf}` : empty}
    ORDER BY e.ord)`;
}
