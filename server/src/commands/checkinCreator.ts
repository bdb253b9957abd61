import { initialPersonStatus, personStatusEvent, resolveOccurredAt, validateCheckinForm } from '../../../shared/src/domain';
import type { CreateCheckinRequest, PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import type { Principal, SiteAccess } from '../auth/principal';
import type { PersonCheckinRow } from '../db/personCheckinRows';
import { arrivingVisit } from '../db/visitRows';
import { type Executor, prepared, queryOne } from '../db/query';
import type { GuardedWrite } from '../idempotency/store';
import { problem, validationFailed } from '../errors/problem';
import { outboxEvent, outboxInsertCte } from '../outbox/events';
import { presentPersonCheckin } from '../presenters/personCheckin';
import { normalizeEmail, normalizeName, normalizePhone } from '../../../shared/src/domain/watchlist';

interface Precheck {
  id: number;
  watchlisted: boolean;
  known_labels: number;
}

// One round trip for everything the insert depends on: a new id, the watchlist, and the labels' existence.
const PRECHECK = prepared(`
  SELECT nextval(pg_get_serial_sequence('person_checkins', 'id')) AS id,
    EXISTS (SELECT 1 FROM watchlist_people w WHERE w.account_id = $1 AND (
      w.email_norm = $2 OR w.phone_norm = $3 OR w.name_norm = $4)) AS watchlisted,
    (SELECT count(*)::int FROM person_labels l WHERE l.account_id = $1 AND l.id = ANY($5::bigint[])) AS known_labels`);

/**
 * The insert and its events as guarded CTEs: they run only when `guard` holds (the key was claimed) and every
 * label is still there. The labels are taken FOR KEY SHARE until commit, so a label DELETE waits for this
 * check-in and then untags it; a label deleted since the precheck leaves the insert undone (`applied` false),
 * and the command runs again, when the precheck refuses the label.
 */
const insertCtes = (guard: string) => `
  labels AS (
    SELECT l.id FROM person_labels l WHERE l.account_id = $1 AND l.id = ANY($14::integer[]) FOR KEY SHARE),
  checkin AS (
    INSERT INTO person_checkins (account_id, id, site_id, status, first_name, last_name, email, phone, company,
      host_name, purpose, custom_fields, label_ids, entry_source, entry_at, last_event_at, created_at, updated_at)
    SELECT $1::integer, $4::bigint, $2::integer, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::integer[], $15,
      $16::timestamptz, $16::timestamptz, $3::timestamptz, $3::timestamptz
    WHERE ${guard} AND (SELECT count(*) FROM labels) = cardinality($14::integer[])
    RETURNING id),
  ${outboxInsertCte({ account: 1, site: 2, at: 3, events: 17 }, 'EXISTS (SELECT 1 FROM checkin)')}`;

/**
 * Plans a person check-in: validated against the site's fields, IN / PENDING / STOP decided, the event
 * built. Reads only; the returned write (the row and its event) runs as one statement with the key's record.
 */
export async function createPersonCheckin(
  db: Executor,
  input: { principal: Principal; site: SiteAccess; request: CreateCheckinRequest; now: Date },
): Promise<{ checkin: PersonCheckin; write: GuardedWrite }> {
  const { principal, site, request, now } = input;
  const formErrors = validateCheckinForm(site.checkinConfig.fields, request);
  if (formErrors.length > 0) throw validationFailed(formErrors, 'The check-in does not meet the site configuration.');
  const time = resolveOccurredAt(request.occurredAt ? new Date(request.occurredAt) : undefined, now);
  if (!time.ok) throw problem('OCCURRED_AT_OUT_OF_RANGE', time.message);
  const labelIds = [...new Set(request.labelIds ?? [])];
  const { person } = request;
  const pre = await queryOne<Precheck>(db, PRECHECK, [
    principal.accountId,
    normalizeEmail(person.email),
    normalizePhone(person.phone),
    normalizeName(person.firstName, person.lastName),
    labelIds,
  ]);
  if (!pre) throw new Error('precheck returned nothing');
  if (pre.known_labels !== labelIds.length) {
    throw validationFailed([{ path: 'labelIds', message: 'Unknown person label id(s)' }]);
  }
  const status = initialPersonStatus({ watchlisted: pre.watchlisted, requiresApproval: site.checkinConfig.requiresApproval });
  const row: PersonCheckinRow = arrivingVisit({ accountId: principal.accountId, id: pre.id, siteId: site.siteId, source: principal.channel, at: time.at, now }, {
    status,
    first_name: person.firstName ?? '',
    last_name: person.lastName ?? '',
    email: person.email || null,
    phone: person.phone || null,
    company: person.company || null,
    host_name: request.hostName || null,
    purpose: request.purpose || null,
    custom_fields: request.customFields ?? {},
    label_ids: labelIds,
    breaks: [],
  });
  const checkin = presentPersonCheckin(row);
  const event = personStatusEvent(status);
  const events = event
    ? [outboxEvent({ type: event, accountId: row.account_id, siteId: row.site_id, now, data: { checkin } })]
    : [];
  const bind = [
    row.account_id, row.site_id, now, row.id, row.status, row.first_name, row.last_name, row.email, row.phone,
    row.company, row.host_name, row.purpose, JSON.stringify(row.custom_fields), row.label_ids, row.entry_source,
    row.entry_at, JSON.stringify(events),
  ];
  return { checkin, write: { ctes: insertCtes, bind, applied: 'EXISTS (SELECT 1 FROM checkin)' } };
}
