import { type z } from 'zod';
import type { PersonStatus, VehicleStatus } from '../domain';
import { page } from '../schemas/common';
import type {
  CheckoutRequest,
  CreateCheckinRequest,
  DenyRequest,
  PeopleCheckinsSearchRequest,
  TimedActionRequest,
} from '../schemas/personCheckins';
import type { Site } from '../schemas/sites';
import {
  type CreateVehicleCheckinRequest,
  VehicleChanges,
  type VehicleCheckinsSearchRequest,
} from '../schemas/vehicles';
import { KioskPasses } from '../schemas/invitations';
import { WatchlistDigest } from '../schemas/watchlist';
import { SiteAnswer } from './adminAnswers';
import {
  CheckinConfigAnswer,
  KioskPersonAnswer,
  PeopleChangesAnswer,
  PersonCheckinAnswer,
  VehicleCheckinAnswer,
} from './answers';
import { type FetchLike, type HttpOutcome, type HttpTransport, send } from './http';
import { KioskHostsAnswer } from './hostAnswers';

export * from './answers';

const KioskPersonPage = page(KioskPersonAnswer);
export type KioskPersonPage = z.infer<typeof KioskPersonPage>;
const PersonPage = page(PersonCheckinAnswer);
const VehiclePage = page(VehicleCheckinAnswer);
// Read leniently: a server from before archiving sends no `archivedAt`.
const SitePage = page(SiteAnswer);
export type PersonPage = z.infer<typeof PersonPage>;
export type VehiclePage = z.infer<typeof VehiclePage>;

/** The person-check-in state changes, by the path segment after the check-in. */
export type PersonActionPath = 'breaks/start' | 'breaks/end';

export interface ListQuery<S extends string> {
  status?: readonly S[];
  limit?: number;
  cursor?: string;
}

function listPath<S extends string>(base: string, query: ListQuery<S>): string {
  const params = new URLSearchParams();
  if (query.status?.length) params.set('status', query.status.join(','));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.cursor !== undefined) params.set('cursor', query.cursor);
  const search = params.toString();
  return search === '' ? base : `${base}?${search}`;
}

/**
 * The origin (and any path prefix) the API's `/v1/...` paths are appended to. The server's start banner
 * prints the API base with `/v1`, and people paste it as it is: trailing slashes and one trailing `/v1`
 * are dropped, so `https://host`, `https://host/` and `https://host/v1/` all reach `https://host/v1/sites`.
 */
export function apiBaseUrl(serverUrl: string): string {
  const trimmed = serverUrl.trim().replace(/\/+$/, '');
  // Only a path segment is dropped, never the host: `http://v1` names a host called v1.
  const parts = /^([a-z][a-z\d+.-]*:\/\/[^/?#]*)(.*)$/i.exec(trimmed);
  if (!parts) return trimmed;
  const [, origin = '', path = ''] = parts;
  return origin + path.replace(/\/v1$/, '').replace(/\/+$/, '');
}

export interface ApiClientOptions {
  baseUrl: string;
  /** A bearer token; left out by a browser that signs in with the session cookie. */
  token?: string;
  fetch: FetchLike;
  now: () => number;
  timeoutMs?: number;
  /** Told the server's time with every answer of the API (the kiosk corrects a wrong device clock by it). */
  onServerTime?: (serverMs: number) => void;
}

/**
 * A typed client of the API: one method per endpoint, answers checked against the same zod schemas the
 * server validates with, read so that v1's growth does not break them (answers.ts): an enum value newer
 * than this client is kept as text, a field it does not know is dropped. The kiosk's only way to the
 * server, and usable by any TypeScript integrator.
 */
export function createApiClient(options: ApiClientOptions) {
  const transport: HttpTransport = {
    baseUrl: apiBaseUrl(options.baseUrl),
    token: options.token,
    fetch: options.fetch,
    now: options.now,
    timeoutMs: options.timeoutMs ?? 15_000,
    onServerTime: options.onServerTime,
  };
  const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
  const vehicles = (siteId: number) => `/v1/sites/${siteId}/checkins/vehicles`;
  return {
    listSites: (cursor?: string): Promise<HttpOutcome<z.infer<typeof SitePage>>> =>
      send(transport, { method: 'GET', path: listPath('/v1/sites', { cursor, limit: 200 }) }, SitePage),

    /** Conditional when `etag` is given: `notModified` means the cached configuration is still current. */
    getCheckinConfig: (siteId: number, etag?: string): Promise<HttpOutcome<CheckinConfigAnswer>> =>
      send(
        transport,
        { method: 'GET', path: `${people(siteId)}/config`, headers: etag ? { 'If-None-Match': etag } : {} },
        CheckinConfigAnswer,
      ),

    /** The site's hosts, id and name only (docs/notifications.md); conditional when `etag` is given. */
    getKioskHosts: (siteId: number, etag?: string): Promise<HttpOutcome<KioskHostsAnswer>> =>
      send(
        transport,
        { method: 'GET', path: `/v1/sites/${siteId}/kiosk/hosts`, headers: etag ? { 'If-None-Match': etag } : {} },
        KioskHostsAnswer,
      ),

    /** The watchlist as keyed hashes; conditional when `etag` is given (`notModified`: the kept copy is current). */
    getWatchlistDigest: (siteId: number, etag?: string): Promise<HttpOutcome<WatchlistDigest>> =>
      send(
        transport,
        {
          method: 'GET',
          path: `/v1/sites/${siteId}/kiosk/watchlist-digest`,
          headers: etag ? { 'If-None-Match': etag } : {},
        },
        WatchlistDigest,
      ),

    /** The account's pass keys and the site's revoked passes, for checking passes offline; conditional with `etag`. */
    getKioskPasses: (siteId: number, etag?: string): Promise<HttpOutcome<KioskPasses>> =>
      send(
        transport,
        { method: 'GET', path: `/v1/sites/${siteId}/kiosk/passes`, headers: etag ? { 'If-None-Match': etag } : {} },
        KioskPasses,
      ),

    createPersonCheckin: (siteId: number, body: CreateCheckinRequest, key: string) =>
      send(transport, { method: 'POST', path: people(siteId), body, idempotencyKey: key }, PersonCheckinAnswer),

    personAction: (
      siteId: number,
      checkinId: number,
      action: PersonActionPath,
      body: TimedActionRequest,
      key: string,
    ) =>
      send(
        transport,
        { method: 'POST', path: `${people(siteId)}/${checkinId}/${action}`, body, idempotencyKey: key },
        PersonCheckinAnswer,
      ),

    /** One visit as it is now (the console re-reads the one an event names, docs/event-stream-clients.md). */
    getPerson: (siteId: number, checkinId: number): Promise<HttpOutcome<PersonCheckinAnswer>> =>
      send(transport, { method: 'GET', path: `${people(siteId)}/${checkinId}` }, PersonCheckinAnswer),

    checkoutPerson: (siteId: number, checkinId: number, body: CheckoutRequest, key: string) =>
      send(
        transport,
        { method: 'PATCH', path: `${people(siteId)}/${checkinId}`, body, idempotencyKey: key },
        PersonCheckinAnswer,
      ),

    approvePerson: (siteId: number, checkinId: number, body: TimedActionRequest, key: string) =>
      send(
        transport,
        { method: 'POST', path: `${people(siteId)}/${checkinId}/approve`, body, idempotencyKey: key },
        PersonCheckinAnswer,
      ),

    denyPerson: (siteId: number, checkinId: number, body: DenyRequest, key: string) =>
      send(
        transport,
        { method: 'POST', path: `${people(siteId)}/${checkinId}/deny`, body, idempotencyKey: key },
        PersonCheckinAnswer,
      ),

    searchPeople: (body: PeopleCheckinsSearchRequest): Promise<HttpOutcome<PersonPage>> =>
      send(transport, { method: 'POST', path: '/v1/checkins/people/search', body }, PersonPage),

    /** A visitor kiosk's view of its site's people: on site now, and the last day's refusals (no contact data). */
    listKioskPeople: (
      siteId: number,
      query: { limit?: number; cursor?: string },
    ): Promise<HttpOutcome<KioskPersonPage>> =>
      send(transport, { method: 'GET', path: listPath(`/v1/sites/${siteId}/kiosk/people`, query) }, KioskPersonPage),

    /** The site's people changed after `cursor` (docs/api.md, People change feed): a visitor kiosk's Roll call. */
    peopleChanges: (siteId: number, cursor?: string, limit?: number): Promise<HttpOutcome<PeopleChangesAnswer>> =>
      send(
        transport,
        { method: 'GET', path: listPath(`${people(siteId)}/changes`, { cursor, limit }) },
        PeopleChangesAnswer,
      ),

    listPeople: (siteId: number, query: ListQuery<PersonStatus>): Promise<HttpOutcome<PersonPage>> =>
      send(transport, { method: 'GET', path: listPath(people(siteId), query) }, PersonPage),

    createVehicleCheckin: (siteId: number, body: CreateVehicleCheckinRequest, key: string) =>
      send(transport, { method: 'POST', path: vehicles(siteId), body, idempotencyKey: key }, VehicleCheckinAnswer),

    getVehicle: (siteId: number, checkinId: number): Promise<HttpOutcome<VehicleCheckinAnswer>> =>
      send(transport, { method: 'GET', path: `${vehicles(siteId)}/${checkinId}` }, VehicleCheckinAnswer),

    checkoutVehicle: (siteId: number, checkinId: number, body: CheckoutRequest, key: string) =>
      send(
        transport,
        { method: 'PATCH', path: `${vehicles(siteId)}/${checkinId}`, body, idempotencyKey: key },
        VehicleCheckinAnswer,
      ),

    listVehicles: (siteId: number, query: ListQuery<VehicleStatus>): Promise<HttpOutcome<VehiclePage>> =>
      send(transport, { method: 'GET', path: listPath(vehicles(siteId), query) }, VehiclePage),

    searchVehicles: (body: VehicleCheckinsSearchRequest): Promise<HttpOutcome<VehiclePage>> =>
      send(transport, { method: 'POST', path: '/v1/checkins/vehicles/search', body }, VehiclePage),

    /** Admits a PENDING vehicle (→ IN). */
    approveVehicle: (siteId: number, checkinId: number, body: TimedActionRequest, key: string) =>
      send(
        transport,
        { method: 'POST', path: `${vehicles(siteId)}/${checkinId}/approve`, body, idempotencyKey: key },
        VehicleCheckinAnswer,
      ),

    /** Refuses a PENDING vehicle (→ STOP), with an optional reason. */
    denyVehicle: (siteId: number, checkinId: number, body: DenyRequest, key: string) =>
      send(
        transport,
        { method: 'POST', path: `${vehicles(siteId)}/${checkinId}/deny`, body, idempotencyKey: key },
        VehicleCheckinAnswer,
      ),

    getSite: (siteId: number): Promise<HttpOutcome<Site>> =>
      send(transport, { method: 'GET', path: `/v1/sites/${siteId}` }, SiteAnswer),

    /** The account's vehicle and label changes after `cursor` (from the beginning without one). */
    vehicleChanges: (cursor?: string, limit?: number): Promise<HttpOutcome<VehicleChanges>> =>
      send(
        transport,
        { method: 'GET', path: listPath('/v1/profiles/vehicles/changes', { cursor, limit }) },
        VehicleChanges,
      ),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
