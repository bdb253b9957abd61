import type { NotifyChannel } from '../../../shared/src/domain/hostNotifications';
import type { CreateHostRequest, HostLanguage, UpdateHostRequest } from '../../../shared/src/schemas/hosts';
import type { Principal } from '../auth/principal';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { type FieldError, conflict, notFound, problem, validationFailed } from '../errors/problem';
import { publishEvent } from '../live/publish';
import { viewableSites } from '../policies/viewableSites';
import { type HostRow, presentHost } from '../presenters/host';
import { findHost, findVisibleHost } from '../queries/hosts';
import { urlRefusal } from '../webhooks/addressPolicy';

/** What a host reads as once a create or a change applies. */
export interface HostValues {
  name: string;
  email: string | null;
  phone: string | null;
  allSites: boolean;
  siteIds: number[];
  notifyBy: NotifyChannel[];
  chatWebhookUrl: string | null;
  language: HostLanguage;
}

/** 23505 on the email index: another host of the account has the address. */
const isEmailTaken = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === '23505' &&
  (error as { constraint?: unknown }).constraint === 'hosts_email';

const emailTaken = (email: string) => conflict('EMAIL_TAKEN', `Another host of the account has the email ${email}.`);

/**
 * Refuses (422) a chat URL the webhook address policy refuses (docs/webhooks.md: a host that does not resolve,
 * or resolves to a non-public address unless WEBHOOK_ALLOW_PRIVATE_URLS); 503 while DNS cannot answer. No
 * database: the route runs it before its transaction.
 */
export async function checkChatUrl(url: string | null | undefined, allowPrivate: boolean): Promise<void> {
  if (!url) return;
  const refusal = await urlRefusal(url, allowPrivate);
  if (refusal?.kind === 'unchecked') throw problem('UNAVAILABLE', refusal.message, { headers: { 'Retry-After': '5' } });
  if (refusal) throw validationFailed([{ path: 'chatWebhookUrl', message: refusal.message }]);
}

/** The refusals of a host as it would read: each channel needs its address; a host needs sites. */
export function hostValueErrors(values: HostValues): FieldError[] {
  const errors: FieldError[] = [];
  if (values.notifyBy.includes('email') && !values.email)
    errors.push({ path: 'email', message: 'A host told by email needs an email' });
  if (values.notifyBy.includes('chat') && !values.chatWebhookUrl)
    errors.push({ path: 'chatWebhookUrl', message: 'A host told by chat needs a chatWebhookUrl' });
  if (!values.allSites && values.siteIds.length === 0)
    errors.push({ path: 'siteIds', message: 'Give at least one site, or allSites: true' });
  return errors;
}

/** The sites are the caller's to give: each one it can view (else 404), every site only for a caller with every site. */
async function checkSites(db: Executor, principal: Principal, values: HostValues): Promise<void> {
  if (values.allSites && !principal.allSites) {
    throw validationFailed([
      { path: 'allSites', message: 'Only someone who can view every site may give a host every site' },
    ]);
  }
  if (!values.allSites) await viewableSites(db, principal, values.siteIds);
}

async function writeSites(db: Executor, accountId: number, hostId: number, values: HostValues): Promise<void> {
  const siteIds = values.allSites ? [] : values.siteIds;
  // One statement: the sites no longer the host's go, the new ones come (the rest stay as they are).
  await queryRows(
    db,
    sql`WITH gone AS (
          DELETE FROM host_sites WHERE account_id = ${accountId} AND host_id = ${hostId} AND NOT site_id = ANY(${siteIds}::int[]))
        INSERT INTO host_sites (account_id, host_id, site_id)
        SELECT ${accountId}, ${hostId}, site FROM unnest(${siteIds}::int[]) AS site
        ON CONFLICT DO NOTHING`,
  );
}

/** Where a host is offered: every site of the account, or these. */
export type HostSites = { allSites: boolean; siteIds: readonly number[] };

/**
 * The `hosts` events of a change (docs/api.md, Event stream), in its transaction: one for each site whose
 * hosts it changed (the host's sites before and after), or one for the whole account when a side is every
 * site. Kiosks re-read their site's hosts, and consoles' Hosts pages the list.
 */
export async function publishHostsChange(db: Executor, accountId: number, sides: readonly HostSites[]): Promise<void> {
  const everySite = sides.some((side) => side.allSites);
  const siteIds = [...new Set(sides.flatMap((side) => side.siteIds))].sort((a, b) => a - b);
  const targets: Array<number | null> = everySite ? [null] : siteIds;
  await publishEvent(db, ...targets.map((siteId) => ({ accountId, siteId, type: 'hosts' as const, data: { siteId } })));
}

/** Writes a new host (its values already judged); 409 EMAIL_TAKEN when its email is another host's. */
export async function insertHost(
  db: Executor,
  input: { accountId: number; values: HostValues; now: Date },
): Promise<number> {
  const { accountId, values, now } = input;
  let row: { id: number } | undefined;
  try {
    row = await queryOne<{ id: number }>(
      db,
      sql`INSERT INTO hosts (account_id, name, email, phone, all_sites, notify_by, chat_webhook_url, language, created_at)
          VALUES (${accountId}, ${values.name}, ${values.email}, ${values.phone}, ${values.allSites},
                  ${values.notifyBy}::text[], ${values.chatWebhookUrl}, ${values.language}, ${now})
          RETURNING id`,
    );
  } catch (error) {
    if (isEmailTaken(error) && values.email) throw emailTaken(values.email);
    throw error;
  }
  if (!row) throw new Error('host insert returned nothing');
  await writeSites(db, accountId, row.id, values);
  return row.id;
}

/** Rewrites a host with its new values (judged already); 409 EMAIL_TAKEN as for a create. */
export async function rewriteHost(
  db: Executor,
  input: { accountId: number; hostId: number; values: HostValues; sitesChanged: boolean },
): Promise<void> {
  const { accountId, hostId, values } = input;
  try {
    await queryRows(
      db,
      sql`UPDATE hosts SET name = ${values.name}, email = ${values.email}, phone = ${values.phone},
            all_sites = ${values.allSites}, notify_by = ${values.notifyBy}::text[],
            chat_webhook_url = ${values.chatWebhookUrl}, language = ${values.language}
          WHERE account_id = ${accountId} AND id = ${hostId}`,
    );
  } catch (error) {
    if (isEmailTaken(error) && values.email) throw emailTaken(values.email);
    throw error;
  }
  if (input.sitesChanged) await writeSites(db, accountId, hostId, values);
}

/** Read back as the account has it (never out of the caller's view: its sites were checked). */
async function reread(db: Executor, principal: Principal, hostId: number): Promise<HostRow> {
  const row = await findHost(db, principal.accountId, hostId);
  if (!row) throw new Error(`host ${hostId} vanished`);
  return row;
}

/** Creates a host (docs/notifications.md, Hosts). The chat URL was checked before the transaction (checkChatUrl). */
export async function createHost(
  db: Executor,
  input: { principal: Principal; request: CreateHostRequest; now: Date },
): Promise<ReturnType<typeof presentHost>> {
  const { principal, request, now } = input;
  const email = request.email ?? null;
  const values: HostValues = {
    name: request.name,
    email,
    phone: request.phone ?? null,
    allSites: request.allSites === true,
    siteIds: request.allSites ? [] : [...new Set(request.siteIds ?? [])],
    notifyBy: request.notifyBy ?? (email ? ['email'] : []),
    chatWebhookUrl: request.chatWebhookUrl ?? null,
    language: request.language ?? 'en',
  };
  const errors = hostValueErrors(values);
  if (errors.length > 0) throw validationFailed(errors);
  await checkSites(db, principal, values);
  const hostId = await insertHost(db, { accountId: principal.accountId, values, now });
  await publishHostsChange(db, principal.accountId, [values]);
  return presentHost(await reread(db, principal, hostId));
}

/** Changes the fields sent (`null` clears email, phone or chatWebhookUrl); 404 for a host the caller cannot see. */
export async function updateHost(
  db: Executor,
  input: { principal: Principal; hostId: number; request: UpdateHostRequest },
): Promise<ReturnType<typeof presentHost>> {
  const { principal, hostId, request } = input;
  const stored = await findVisibleHost(db, principal, hostId, true);
  if (!stored) throw notFound(`Host ${hostId} does not exist.`);
  const pick = <T>(sent: T | undefined, kept: T) => (sent === undefined ? kept : sent);
  const allSites = request.allSites ?? (request.siteIds ? false : stored.all_sites);
  const values: HostValues = {
    name: pick(request.name, stored.name),
    email: pick(request.email, stored.email),
    phone: pick(request.phone, stored.phone),
    allSites,
    siteIds: allSites ? [] : [...new Set(request.siteIds ?? stored.site_ids)],
    notifyBy: pick(request.notifyBy, stored.notify_by),
    chatWebhookUrl: pick(request.chatWebhookUrl, stored.chat_webhook_url),
    language: pick(request.language, stored.language),
  };
  const errors = hostValueErrors(values);
  if (errors.length > 0) throw validationFailed(errors);
  const sitesChanged = request.siteIds !== undefined || request.allSites !== undefined;
  if (sitesChanged) await checkSites(db, principal, values);
  await rewriteHost(db, { accountId: principal.accountId, hostId, values, sitesChanged });
  await publishHostsChange(db, principal.accountId, [values, { allSites: stored.all_sites, siteIds: stored.site_ids }]);
  return presentHost(await reread(db, principal, hostId));
}

/** Deletes a host; past visits keep its id and name as they were (docs/notifications.md). */
export async function deleteHost(db: Executor, input: { principal: Principal; hostId: number }): Promise<void> {
  const stored = await findVisibleHost(db, input.principal, input.hostId, true);
  if (!stored) throw notFound(`Host ${input.hostId} does not exist.`);
  await queryRows(db, sql`DELETE FROM hosts WHERE account_id = ${input.principal.accountId} AND id = ${input.hostId}`);
  await publishHostsChange(db, input.principal.accountId, [{ allSites: stored.all_sites, siteIds: stored.site_ids }]);
}
