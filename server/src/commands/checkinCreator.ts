import {
  type IncompleteField,
  type PersonStatus,
  initialPersonStatus,
  olderFormAlertText,
  personStatusEvent,
} from '../../../shared/src/domain';
import type { CreateCheckinRequest, PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import type { Principal, SiteAccess } from '../auth/principal';
import type { PersonCheckinRow } from '../queries/personCheckinRows';
import { arrivingVisit, decidedByParam } from '../queries/visitRows';
import { arrivalTime, settledArrival, visitEvents } from './visitChange';
import { deciderOf } from '../auth/decider';
import { type Executor, queryOne } from '../db/query';
import { nextId } from '../db/idBlocks';
import { type Sql, empty, sql } from '../db/sql';
import type { WriteStatement } from '../reply';
import { validationFailed } from '../errors/problem';
import { checkCheckinForm } from './checkinFormCheck';
import { type OutboxEvent, outboxInsertCte } from '../outbox/events';
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
  watchlisted: boolean;
  /** The matching watchlist entry's reason (the first entry's, when several match). */
  watch_reason: string | null;
  known_labels: number;
}

interface Visitor {
  accountId: number;
  email: string | null;
  phone: string | null;
  name: string | null;
}

/** The account's watchlist entries the visitor matches (normalized email, phone or name). */
const watchlistMatches = (input: Visitor) => sql`FROM watchlist_people w WHERE w.account_id = ${input.accountId} AND (
      w.email_norm = ${input.email} OR w.phone_norm = ${input.phone} OR w.name_norm = ${input.name})`;

// One round trip for everything the insert depends on: the watchlist, and the labels' existence.
const precheck = (input: Visitor & { labelIds: number[] }) => {
  const matches = watchlistMatches(input);
  return sql`
  SELECT EXISTS (SELECT 1 ${matches}) AS watchlisted,
    (SELECT w.reason ${matches} ORDER BY w.id LIMIT 1) AS watch_reason,
    (SELECT count(*)::int FROM person_labels l
     WHERE l.account_id = ${input.accountId} AND l.id = ANY(${input.labelIds}::bigint[])) AS known_labels`;
};

/** The largest value of an integer column (label ids are). */
const MAX_INTEGER = 2_147_483_647;

/** What nearly every visit is: on no watchlist, its labels all there. */
const usual = (labelIds: number[]): Precheck => ({
  watchlisted: false,
  watch_reason: null,
  known_labels: labelIds.length,
});

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
 * The create as one statement: the key's claim, the insert and its events, the audit row. The insert runs
 * only when the key was claimed, every label is still there and, for a visit planned as the usual one
 * without a precheck, the visitor matches no watchlist entry (`unlisted`). The labels are taken FOR KEY
 * SHARE until commit, so a label DELETE waits for this check-in and then untags it; a label deleted since
 * the precheck leaves the insert undone (not CREATED), and the command runs again, when the precheck
 * refuses the label (or, for a watchlisted visitor, plans a STOP).
 */
const insertStatement =
  (
    row: PersonCheckinRow,
    now: Date,
    events: OutboxEvent[],
    more: {
      incomplete: readonly IncompleteField[];
      notify: Sql;
      also: Sql;
      pass: { ctes: Sql; applied: Sql };
      unlisted?: Visitor;
    },
  ): WriteStatement =>
  (parts) => sql`
  WITH ${parts.claim},
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
    WHERE ${parts.claimed} AND (SELECT count(*) FROM labels) = cardinality(${row.label_ids}::integer[])
      ${more.unlisted ? sql`AND NOT EXISTS (SELECT 1 ${watchlistMatches(more.unlisted)})` : empty}
    RETURNING id),
  ${outboxInsertCte({ accountId: row.account_id, siteId: row.site_id, at: now, events }, CREATED)}${olderFormAlertCte(row, now, more.incomplete)}${more.notify}${more.pass.ctes}${more.also},
  ${parts.audit(more.pass.applied)}
  SELECT ${parts.outcome(more.pass.applied)}`;

/**
 * Plans a person check-in: validated against the site's fields, IN / PENDING / STOP decided, the event
 * built. Reads only; the returned write (the row and its event) runs as one statement with the key's record.
 * The first attempt reads nothing: it plans the usual visit, which its statement checks (docs/operations.md,
 * The write path); a later attempt (the visitor was watchlisted, a label gone) reads what it depends on.
 */
export async function createPersonCheckin(
  db: Executor,
  input: {
    principal: Principal;
    site: SiteAccess;
    request: CreateCheckinRequest;
    now: Date;
    attempt?: number;
    /** More CTEs of the caller's (a phone's key), each beginning with a comma, run only when the visit is created. */
    also?: (created: Sql) => Sql;
  },
): Promise<{ checkin: PersonCheckin; write: WriteStatement }> {
  const { principal, site, now } = input;
  refuseIfArchived(site);
  const arrivedAt = arrivalTime(input.request.occurredAt, now);
  // A pass (docs/invitations.md) is judged at the entry time, and its invitation fills in what the body leaves out.
  const arrival =
    input.request.pass === undefined
      ? undefined
      : await passAtCreate(db, { accountId: principal.accountId, site, token: input.request.pass, at: arrivedAt });
  const request = arrival ? withInvitation(input.request, arrival.invitation) : input.request;
  const incomplete = await checkCheckinForm(db, { accountId: principal.accountId, site, request });
  const host = await hostOf(db, principal, site, input.request, request);
  const labelIds = [...new Set(request.labelIds ?? [])];
  const { person } = request;
  const visitor: Visitor = {
    accountId: principal.accountId,
    email: normalizeEmail(person.email),
    phone: normalizePhone(person.phone),
    name: normalizeName(person.firstName, person.lastName),
  };
  // An id past the integer columns' range names no label: the read refuses it before any statement casts it.
  const guessed = (input.attempt ?? 1) === 1 && labelIds.every((id) => id <= MAX_INTEGER);
  const pre = guessed
    ? usual(labelIds)
    : await queryOne<Precheck>(db, precheck({ ...visitor, labelIds }), { prepare: true });
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
    {
      accountId: principal.accountId,
      id: await nextId(db, 'person_checkins'),
      siteId: site.siteId,
      source: principal.source,
      at: arrivedAt,
      now,
    },
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
  settledArrival(row, 'watchlist', deciderOf(principal), now);
  // Where the site asks for approval, the invitation was it, given in advance by whoever invited.
  if (arrival?.kind === 'admit' && status === 'IN' && site.checkinConfig.requiresApproval && row.decided_by === null)
    Object.assign(row, { decided_by: arrival.invitation.created_by, decided_at: now });
  const checkin = presentPersonCheckin(row);
  const event = personStatusEvent(status);
  const events = visitEvents(row, event ? [event] : [], checkin);
  const notify = hostNotificationsCte({ row, webhookEvent: event, at: arrivedAt, now }, CREATED);
  const unlisted = guessed ? visitor : undefined;
  const also = input.also?.(CREATED) ?? empty;
  const pass = passCtes(arrival, row, now, CREATED);
  return { checkin, write: insertStatement(row, now, events, { incomplete, notify, also, pass, unlisted }) };
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
