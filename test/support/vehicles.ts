import { expect } from 'vitest';
import type { Scope } from '../../shared/src/schemas/admin';
import type { Problem } from '../../shared/src/schemas/common';
import type { Vehicle, VehicleCheckin, VehicleLabel } from '../../shared/src/schemas/vehicles';
import { queryRows } from '../../server/src/db/query';
import { type World, buildToken } from './factories';
import { type ApiClient, apiClient } from './http';
import type { TestServer } from './testServer';
import { sql } from '../../server/src/db/sql';

/** The list envelope (docs/api.md, Pagination). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export const VEHICLES = '/v1/profiles/vehicles';
export const VEHICLE_LABELS = '/v1/labels/vehicles';
export const VEHICLE_SEARCH = '/v1/checkins/vehicles/search';
export const visits = (siteId: number) => `/v1/sites/${siteId}/checkins/vehicles`;
export const visit = (checkin: Pick<VehicleCheckin, 'siteId' | 'checkinId'>) =>
  `${visits(checkin.siteId)}/${checkin.checkinId}`;

let counter = 0;
/** A plate no other test of the run uses (valid: 1–16 of A–Z and 0–9 once normalized). */
export const uniquePlate = (prefix = 'GH') => `${prefix}-${String(++counter).padStart(4, '0')}-${process.pid % 1000}`;
export const uniqueName = (prefix: string) => `${prefix} ${++counter}`;

export function expectProblem(
  response: { status: number; headers: Headers; body: Problem },
  status: number,
  code: string,
): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(response.body.code).toBe(code);
}

/** The paths of a 422's `errors`. */
export const errorPaths = (response: { body: Problem }) => (response.body.errors ?? []).map((error) => error.path);

export async function registerVehicle(api: ApiClient, body: Record<string, unknown>): Promise<Vehicle> {
  const response = await api.post<Vehicle>(VEHICLES, body);
  expect(response.status).toBe(201);
  return response.body;
}

export async function createVehicleLabel(
  api: ApiClient,
  body: { name?: string; color?: string; blocksEntry?: boolean } = {},
): Promise<VehicleLabel> {
  const response = await api.post<VehicleLabel>(VEHICLE_LABELS, { name: uniqueName('Label'), ...body });
  expect(response.status).toBe(201);
  return response.body;
}

/** A vehicle arriving at a site; expects 201. */
export async function arrive(api: ApiClient, siteId: number, body: Record<string, unknown>): Promise<VehicleCheckin> {
  const response = await api.post<VehicleCheckin>(visits(siteId), body);
  expect(response.status).toBe(201);
  return response.body;
}

/** A client for the world's account with exactly these scopes. */
export async function clientWith(
  server: TestServer,
  world: World,
  scopes: Scope[],
  siteIds?: number[],
): Promise<ApiClient> {
  const token = await buildToken(server, { accountId: world.accountId, scopes, siteIds });
  return apiClient(server.baseUrl, token.token);
}

/** The outbox events written about one vehicle check-in, oldest first. */
export async function vehicleEvents(server: TestServer, checkinId: number): Promise<string[]> {
  const rows = await queryRows<{ type: string }>(
    server.database,
    sql`SELECT type FROM outbox_events WHERE type LIKE 'VEHICLE_%' AND payload->'data'->'checkin'->>'checkinId' = ${String(checkinId)} ORDER BY id`,
  );
  return rows.map((row) => row.type);
}
