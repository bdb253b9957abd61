import { z } from 'zod';
import type { AuditEventQuery } from '../schemas/audit';
import type { CreateUserRequest, UpdateUserRequest } from '../schemas/staff';
import type {
  CreateVehicleLabelRequest,
  CreateVehicleRequest,
  UpdateVehicleLabelRequest,
  UpdateVehicleRequest,
} from '../schemas/vehicles';
import type { CreateWatchlistEntryRequest, UpdateWatchlistEntryRequest } from '../schemas/watchlist';
import type { CreateWebhookSubscriptionRequest, UpdateWebhookSubscriptionRequest } from '../schemas/webhooks';
import { type FetchLike, type HttpTransport, send } from './http';
import { apiBaseUrl } from './index';
import {
  AuditEventAnswer,
  CreatedUserAnswer,
  CreatedWebhookAnswer,
  PasswordResetAnswer,
  VehicleAnswer,
  VehicleLabelAnswer,
  WatchlistEntryAnswer,
  WebhookDeliveryAnswer,
  WebhookSubscriptionAnswer,
} from './manageAnswers';
import { StaffUserAnswer } from './staffAnswers';

export * from './manageAnswers';

const Nothing = z.null();
const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), nextCursor: z.string().nullable() });
const UserList = z.object({ data: z.array(StaffUserAnswer) });

export interface ManageClientOptions {
  baseUrl: string;
  token?: string;
  fetch: FetchLike;
  now: () => number;
  timeoutMs?: number;
}

/** One keyset page request: `limit` and the previous page's `cursor`. */
export interface PageRequest {
  limit?: number;
  cursor?: string;
}

type QueryValue = string | number | readonly (string | number)[] | undefined;

function withQuery(path: string, query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.join(','));
    } else params.set(name, String(value));
  }
  const search = params.toString();
  return search === '' ? path : `${path}?${search}`;
}

export type AuditFilter = Partial<Pick<AuditEventQuery, 'from' | 'to' | 'action'>> & {
  actorType?: ReadonlyArray<'user' | 'token' | 'operator'>;
  siteIds?: readonly number[];
};

/**
 * Staff, watchlist, vehicles and their labels, webhooks and the audit log: the account's administration
 * through the public API (docs/api.md), as the console calls it with its session cookie.
 */
export function createManageClient(options: ManageClientOptions) {
  const transport: HttpTransport = {
    baseUrl: apiBaseUrl(options.baseUrl),
    token: options.token,
    fetch: options.fetch,
    now: options.now,
    timeoutMs: options.timeoutMs ?? 15_000,
  };
  const webhook = (subscriptionId: number) => `/v1/webhooks/subscriptions/${subscriptionId}`;
  return {
    listUsers: () => send(transport, { method: 'GET', path: '/v1/users' }, UserList),
    inviteUser: (body: CreateUserRequest, key: string) =>
      send(transport, { method: 'POST', path: '/v1/users', body, idempotencyKey: key }, CreatedUserAnswer),
    updateUser: (userId: number, body: UpdateUserRequest, key: string) =>
      send(transport, { method: 'PATCH', path: `/v1/users/${userId}`, body, idempotencyKey: key }, StaffUserAnswer),
    passwordResetLink: (userId: number, key: string) =>
      send(
        transport,
        { method: 'POST', path: `/v1/users/${userId}/password-reset`, body: {}, idempotencyKey: key },
        PasswordResetAnswer,
      ),

    listWatchlist: (page: PageRequest) =>
      send(
        transport,
        { method: 'GET', path: withQuery('/v1/watchlist/people', { ...page }) },
        pageOf(WatchlistEntryAnswer),
      ),
    addToWatchlist: (body: CreateWatchlistEntryRequest, key: string) =>
      send(
        transport,
        { method: 'POST', path: '/v1/watchlist/people', body, idempotencyKey: key },
        WatchlistEntryAnswer,
      ),
    updateWatchlistEntry: (entryId: number, body: UpdateWatchlistEntryRequest, key: string) =>
      send(
        transport,
        { method: 'PATCH', path: `/v1/watchlist/people/${entryId}`, body, idempotencyKey: key },
        WatchlistEntryAnswer,
      ),
    removeFromWatchlist: (entryId: number, key: string) =>
      send(transport, { method: 'DELETE', path: `/v1/watchlist/people/${entryId}`, idempotencyKey: key }, Nothing),

    listVehicleProfiles: (page: PageRequest & { licensePlate?: string; labelId?: number }) =>
      send(transport, { method: 'GET', path: withQuery('/v1/profiles/vehicles', { ...page }) }, pageOf(VehicleAnswer)),
    createVehicle: (body: CreateVehicleRequest, key: string) =>
      send(transport, { method: 'POST', path: '/v1/profiles/vehicles', body, idempotencyKey: key }, VehicleAnswer),
    updateVehicle: (vehicleId: number, body: UpdateVehicleRequest, key: string) =>
      send(
        transport,
        { method: 'PUT', path: `/v1/profiles/vehicles/${vehicleId}`, body, idempotencyKey: key },
        VehicleAnswer,
      ),
    deleteVehicle: (vehicleId: number, key: string) =>
      send(transport, { method: 'DELETE', path: `/v1/profiles/vehicles/${vehicleId}`, idempotencyKey: key }, Nothing),

    listVehicleLabels: (page: PageRequest) =>
      send(
        transport,
        { method: 'GET', path: withQuery('/v1/labels/vehicles', { ...page }) },
        pageOf(VehicleLabelAnswer),
      ),
    createVehicleLabel: (body: CreateVehicleLabelRequest, key: string) =>
      send(transport, { method: 'POST', path: '/v1/labels/vehicles', body, idempotencyKey: key }, VehicleLabelAnswer),
    updateVehicleLabel: (labelId: number, body: UpdateVehicleLabelRequest, key: string) =>
      send(
        transport,
        { method: 'PATCH', path: `/v1/labels/vehicles/${labelId}`, body, idempotencyKey: key },
        VehicleLabelAnswer,
      ),
    deleteVehicleLabel: (labelId: number, key: string) =>
      send(transport, { method: 'DELETE', path: `/v1/labels/vehicles/${labelId}`, idempotencyKey: key }, Nothing),

    listWebhooks: (page: PageRequest) =>
      send(
        transport,
        { method: 'GET', path: withQuery('/v1/webhooks/subscriptions', { ...page }) },
        pageOf(WebhookSubscriptionAnswer),
      ),
    createWebhook: (body: CreateWebhookSubscriptionRequest, key: string) =>
      send(
        transport,
        { method: 'POST', path: '/v1/webhooks/subscriptions', body, idempotencyKey: key },
        CreatedWebhookAnswer,
      ),
    updateWebhook: (subscriptionId: number, body: UpdateWebhookSubscriptionRequest, key: string) =>
      send(
        transport,
        { method: 'PATCH', path: webhook(subscriptionId), body, idempotencyKey: key },
        WebhookSubscriptionAnswer,
      ),
    deleteWebhook: (subscriptionId: number, key: string) =>
      send(transport, { method: 'DELETE', path: webhook(subscriptionId), idempotencyKey: key }, Nothing),
    listDeliveries: (subscriptionId: number, page: PageRequest) =>
      send(
        transport,
        { method: 'GET', path: withQuery(`${webhook(subscriptionId)}/deliveries`, { ...page }) },
        pageOf(WebhookDeliveryAnswer),
      ),
    retryDelivery: (subscriptionId: number, deliveryId: number, key: string) =>
      send(
        transport,
        { method: 'POST', path: `${webhook(subscriptionId)}/deliveries/${deliveryId}/retry`, idempotencyKey: key },
        WebhookDeliveryAnswer,
      ),

    listAuditEvents: (filter: AuditFilter, page: PageRequest) =>
      send(
        transport,
        { method: 'GET', path: withQuery('/v1/audit-events', { ...filter, ...page }) },
        pageOf(AuditEventAnswer),
      ),
  };
}

export type ManageClient = ReturnType<typeof createManageClient>;
