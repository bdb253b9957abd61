import {
  type IncompleteField,
  type PersonStatus,
  initialPersonStatus,
  olderFormAlertText,
  personStatusEvent,
  resolveOccurredAt,
} from '../../../shared/src/domain';
import type { CreateCheckinRequest, PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import type { Principal, SiteAccess } from '../auth/principal';
import type { PersonCheckinRow } from '../db/personCheckinRows';
import { arrivingVisit, decidedByParam, decision } from '../db/visitRows';
import { deciderOf } from '../auth/decider';
import { type Executor, queryOne } from '../db/query';
import { type Sql, empty, sql } from '../db/sql';
import type { GuardedWrite } from '../reply';
import { problem, validationFailed } from '../errors/problem';
import { checkCheckinForm } from './checkinFormCheck';
import { type OutboxEvent, outboxEvent, outboxInsertCte } from '../outbox/events';
import { presentPersonCheckin } from '../presenters/personCheckin';
import { normalizeEmail, normalizeName, normalizePhone } from '../../../shared/src/domain/watchlist';
import { refuseIfArchived } from '../policies/archivedSite';
import { newBadgeCode } from '../badges/badgeCode';
import { decidesOwnCheckin } from '../policies/ownDecision';
import { hostNotificationsCte } from '../notifications/enqueue';
import { hostOfSite } from '../queries/hosts';
import { type PassArrival, passAtCreate, passCtes, withInvitation } from './passArrival';

/** The host a create names, if it is one of the site's; else 422 at `hostId`. */
async function siteHostOrRefuse(db: Executor, principal: Principal, site: SiteAccess, hostId: number) {
  const host = await hostOfSite(db, { accountId: principal.accountId, siteId: site.siteId, hostId });
  if (!host) throw validationFailed([{ path: 'hostId', message: `Host ${hostId} is not a host of this site` }]);
  return host;
}

interface Precheck {
  id: number;
  watchlisted: boolean;
  /** The matching watchlist entry's reason (the first entry's, when several match). */
  watch_reason: string | null;
  known_labels: number;
}

// One round trip for everything the insert depends on: a new id, the watchlist, and the labels' existence.
const precheck = (input: {
  accountId: number;
  email: string | null;
  phone: string | null;
  name: string | null;
  labelIds: number[];
}) => {
  const matches = sql`FROM watchlist_people w WHERE w.account_id = ${input.accountId} AND (
      w.email_norm = ${input.email} OR w.phone_norm = ${input.phone} OR w.name_norm = ${input.name})`;
  return sql`
  SELECT nextval(pg_get_serial_sequence('person_checkins', 'id')) AS id,
    EXISTS (SELECT 1 ${matches}) AS watchlisted,
    (SELECT w.reason ${matches} ORDER BY w.id LIMIT 1) AS watch_reason,
    (SELECT count(*)::int FROM person_labels l
     WHERE l.account_id = ${input.accountId} AND l.id = ANY(${input.labelIds}::bigint[])) AS known_labels`;
};

const CREATED = sql`EXISTS (SELECT 1 FROM checkin)`;

/** The alert of a check-in accepted on an older form, raised with it (docs/api.md, Alerts), or nothing. */
const olderFormAlertCte = (row: PersonCheckinRow, now: Date, incomplete: readonly IncompleteField[]) =>
  incomplete.length === 0
    ? empty
    : sql`,
  form_alert AS (
    INSERT INTO raised_alerts (account_id, site_id, kind, at, checkin_id, reason)
    SELECT ${row.account_id}::integer, ${row.site_id}::integer, 'form', ${now}::timestamptz, id, ${olderFormAlertText(incomplete)}
    FROM checkin)`;

/**
 * The insert and its events as guarded CTEs: they run only when `guard` holds (the key was claimed) and every
 * label is still there. The labels are taken FOR KEY SHARE until commit, so a label DELETE waits for this
 * check-in and then untags it; a label deleted since the precheck leaves the insert undone (`applied` false),
 * and the command runs again, when the precheck refuses the label.
 */
const insertCtes =
  (
    row: PersonCheckinRow,
    now: Date,
    events: OutboxEvent[],
    incomplete: readonly IncompleteField[],
    more: { notify: Sql; pass: Sql },
  ) =>
  (guard: Sql) => sql`
  labels AS (
    SELECT l.id FROM person_labels l WHERE l.account_id = ${row.account_id} AND l.id = ANY(${row.label_ids}::integer[]) FOR KEY SHARE),
  checkin AS (
    INSERT INTO person_checkins (account_id, id, site_id, status, first_name, last_name, email, phone, company,
      host_name, host_id, purpose, custom_fields, label_ids, entry_source, entry_at, last_event_at, decided_by,
      decided_at, stop_reason, stop_source, stopped_at, badge_code, incomplete_fields, invitation_id, pending_reason,
      language, created_at, updated_at)
    SELECT ${row.account_id}::integer, ${row.id}::bigint, ${row.site_id}::integer, ${row.status}, ${row.first_name},
      ${row.last_name}, ${row.email}, ${row.phone}, ${row.company}, ${row.host_name}, ${row.host_id}::integer, ${row.purpose},
      ${JSON.stringify(row.custom_fields)}::jsonb, ${row.label_ids}::integer[], ${row.entry_source},
      ${row.entry_at}::timestamptz, ${row.entry_at}::timestamptz, ${decidedByParam(row)}::jsonb,
      ${row.decided_at}::timestamptz, ${row.stop_reason}, ${row.stop_source}, ${row.stopped_at}::timestamptz,
      ${row.badge_code}, ${row.incomplete_fields}::text[], ${row.invitation_id}::bigint, ${row.pending_reason},
      ${row.language}::text, ${now}::timestamptz, ${now}::timestamptz
    WHERE ${guard} AND (SELECT count(*) FROM labels) = cardinality(${row.label_ids}::integer[])
    RETURNING id),
  ${outboxInsertCte({ accountId: row.account_id, siteId: row.site_id, at: now, events }, CREATED)}${olderFormAlertCte(row, now, incomplete)}${more.notify}${more.pass}`;

/**
 * Plans a person check-in: validated against the site's fields, IN / PENDING / STOP decided, the event
 * built. Reads only; the returned write (the row and its event) runs as one statement with the key's record.
 */
export async function createPersonCheckin(
  db: Executor,
  input: { principal: Principal; site: SiteAccess; request: CreateCheckinRequest; now: Date },
): Promise<{ checkin: PersonCheckin; write: GuardedWrite }> {
  const { principal, site, now } = input;
  refuseIfArchived(site);
  const time = resolveOccurredAt(input.request.occurredAt ? new Date(input.request.occurredAt) : undefined, now);
  if (!time.ok) throw problem('OCCURRED_AT_OUT_OF_RANGE', time.message);
  // A pass (docs/invitations.md) is judged at the entry time, and its invitation fills in what the body leaves out.
  const arrival =
    input.request.pass === undefined
      ? undefined
      : await passAtCreate(db, { accountId: principal.accountId, site, token: input.request.pass, at: time.at });
  const request = arrival ? withInvitation(input.request, arrival.invitation) : input.request;
  const incomplete = await checkCheckinForm(db, { accountId: principal.accountId, site, request });
  const host = await hostOf(db, principal, site, input.request, request);
  const labelIds = [...new Set(request.labelIds ?? [])];
  const { person } = request;
  const statement = precheck({
    accountId: principal.accountId,
    email: normalizeEmail(person.email),
    phone: normalizePhone(person.phone),
    name: normalizeName(person.firstName, person.lastName),
    labelIds,
  });
  const pre = await queryOne<Precheck>(db, statement, { prepare: true });
  if (!pre) throw new Error('precheck returned nothing');
  if (pre.known_labels !== labelIds.length) {
    throw validationFailed([{ path: 'labelIds', message: 'Unknown person label id(s)' }]);
  }
  const status = statusOf(
    arrival,
    pre.watchlisted,
    site.checkinConfig.requiresApproval && !decidesOwnCheckin(principal),
  );
  const row: PersonCheckinRow = arrivingVisit(
    { accountId: principal.accountId, id: pre.id, siteId: site.siteId, source: principal.source, at: time.at, now },
    {
      status,
      first_name: person.firstName ?? '',
      last_name: person.lastName ?? '',
      email: person.email || null,
      phone: person.phone || null,
      company: person.company || null,
      // The host's name as it is now: the visit keeps it whatever becomes of the host.
      host_name: host?.name ?? (request.hostName || null),
      host_id: host?.id ?? null,
      purpose: request.purpose || null,
      custom_fields: request.customFields ?? {},
      label_ids: labelIds,
      stop_reason: status === 'STOP' ? pre.watch_reason : null,
      badge_code: newBadgeCode(),
      incomplete_fields: incomplete.length > 0 ? incomplete.map((field) => field.name) : null,
      invitation_id: arrival?.invitation.id ?? null,
      pending_reason: arrival?.kind === 'hold' && status === 'PENDING' ? arrival.reason : null,
      language: request.language ?? null,
      breaks: [],
    },
  );
  // When the server learned of it (an offline kiosk's check-in may arrive late): an alert is never born old.
  if (status === 'STOP') Object.assign(row, { stop_source: 'watchlist', stopped_at: now });
  Object.assign(row, decision(row, { decider: deciderOf(principal), decisive: false, at: now }));
  // Where the site asks for approval, the invitation was it, given in advance by whoever invited.
  if (arrival?.kind === 'admit' && status === 'IN' && site.checkinConfig.requiresApproval && row.decided_by === null)
    Object.assign(row, { decided_by: arrival.invitation.created_by, decided_at: now });
  const checkin = presentPersonCheckin(row);
  const event = personStatusEvent(status);
  const events = event
    ? [outboxEvent({ type: event, accountId: row.account_id, siteId: row.site_id, now, data: { checkin } })]
    : [];
  const notify = hostNotificationsCte({ row, webhookEvent: event, at: time.at, now }, CREATED);
  const pass = passCtes(arrival, row, now, CREATED);
  return {
    checkin,
    write: { ctes: insertCtes(row, now, events, incomplete, { notify, pass: pass.ctes }), applied: pass.applied },
  };
}

/**
 * IN, PENDING or STOP: the watchlist first; a pass's first use admits (its invitation was the approval); any
 * other use of a pass waits for reception; else the site's approval rule.
 */
function statusOf(arrival: PassArrival | undefined, watchlisted: boolean, requiresApproval: boolean): PersonStatus {
  const status = initialPersonStatus({ watchlisted, requiresApproval: requiresApproval && arrival?.kind !== 'admit' });
  return arrival?.kind === 'hold' && status !== 'STOP' ? 'PENDING' : status;
}

/**
 * The visit's host: the one the body names (of the site, else 422), or the invitation's while it is still a
 * host of the site (a host deleted or moved since is left out rather than refusing the visitor).
 */
async function hostOf(
  db: Executor,
  principal: Principal,
  site: SiteAccess,
  sent: CreateCheckinRequest,
  filled: CreateCheckinRequest,
) {
  if (sent.hostId !== undefined) return siteHostOrRefuse(db, principal, site, sent.hostId);
  if (filled.hostId === undefined) return undefined;
  return hostOfSite(db, { accountId: principal.accountId, siteId: site.siteId, hostId: filled.hostId });
}
