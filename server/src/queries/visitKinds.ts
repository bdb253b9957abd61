import type { z } from 'zod';
import type { ScopeNeed } from '../../../shared/src/schemas/admin';
import { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { Executor } from '../db/query';
import { presentPersonCheckin } from '../presenters/personCheckin';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';
import { type ListedCheckinRow, findCheckin } from './personCheckinRows';
import { type ListedVehicleCheckinRow, findVehicleCheckin } from './vehicleCheckinRows';

/** One visit of one site, by its id. */
export interface VisitKey {
  accountId: number;
  siteId: number;
  checkinId: number;
}

/**
 * What is the same about a person's visit and a vehicle's, said once per kind: where it is kept, what it is
 * called, how one is read and shown. Routes, searches and transitioners take it where the two are alike;
 * where they differ (a create, breaks, plates), each kind has its own code.
 */
export interface VisitKind<Row, Resource> {
  /** The kind's own name, as policies/kioskWindow.ts knows it. */
  name: 'person' | 'vehicle';
  table: 'person_checkins' | 'vehicle_checkins';
  /** The audit log's name of one (docs/api.md, Audit log). */
  target: 'person_checkin' | 'vehicle_checkin';
  /** The API reference's group of its endpoints. */
  tag: 'Person check-ins' | 'Vehicle check-ins';
  /** What one is called in messages: "Check-in 7 does not exist on site 2." */
  noun: string;
  /** Its API shape, and the scopes that read one (a kiosk's within its window: policies/kioskWindow.ts). */
  response: z.ZodType<Resource>;
  readScope: ScopeNeed;
  /** The statuses of a visit still at the site (not OUT): the open partial indexes serve exactly these. */
  notOut: readonly string[];
  find: (db: Executor, key: VisitKey) => Promise<Row | undefined>;
  present: (row: Row) => Resource;
}

export const personVisits: VisitKind<ListedCheckinRow, PersonCheckin> = {
  name: 'person',
  table: 'person_checkins',
  target: 'person_checkin',
  tag: 'Person check-ins',
  noun: 'Check-in',
  response: PersonCheckin,
  readScope: 'checkins:read',
  notOut: ['IN', 'ON_BREAK', 'PENDING', 'STOP'],
  find: findCheckin,
  present: presentPersonCheckin,
};

export const vehicleVisits: VisitKind<ListedVehicleCheckinRow, VehicleCheckin> = {
  name: 'vehicle',
  table: 'vehicle_checkins',
  target: 'vehicle_checkin',
  tag: 'Vehicle check-ins',
  noun: 'Vehicle check-in',
  response: VehicleCheckin,
  // A gate re-reads the one visit an event names (docs/event-stream-clients.md).
  readScope: ['vehicles:read', 'kiosk:gate'],
  notOut: ['IN', 'PENDING', 'STOP'],
  find: findVehicleCheckin,
  present: presentVehicleCheckin,
};
