import { normalizePlate } from '../../../../shared/src/domain';
import { kioskWindowOf } from '../../policies/kioskWindow';
import { DEFAULT_PAGE_SIZE, page } from '../../../../shared/src/schemas/common';
import {
  CreateVehicleCheckinRequest,
  VehicleCheckin,
  VehicleCheckinListQuery,
  VehicleCheckinsSearchRequest,
} from '../../../../shared/src/schemas/vehicles';
import { createVehicleCheckin } from '../../commands/vehicleCheckinCreator';
import { viewableSites } from '../../policies/viewableSites';
import { searchVehicleCheckins } from '../../queries/vehicleCheckinSearch';
import { vehicleVisits } from '../../queries/visitKinds';
import { defineRoute, siteOf } from '../define';
import { pageOf, vehicleCheckinExample } from '../examples';
import { SiteParams } from '../params';
import { readVisitRoute, searchRangesOf } from '../visitRoutes';
import { vehicleActionRoutes } from './actions';
import { auditManualEntry } from '../../audit/targets';

const tag = 'Vehicle check-ins';
const base = '/sites/:siteId/checkins/vehicles';
const plateNorm = (plate: string | undefined) => (plate === undefined ? undefined : normalizePlate(plate));

export const vehicleCheckinRoutes = [
  defineRoute({
    method: 'POST',
    path: base,
    summary: 'A vehicle arrives: IN if registered, PENDING for an unknown plate, STOP for a blocking label',
    description:
      'Records a vehicle at the gate, by registered `vehicleId` or by `licensePlate` (exactly one). A registered vehicle is IN, one with a label that blocks entry STOP (with `stopReason`), an unknown plate PENDING until a guard decides. A plate has one open visit (IN or PENDING) per site. An unknown or deleted `vehicleId` is a 422 naming `vehicleId`.',
    examples: { request: { licensePlate: 'B-GH 1234', driverName: 'Grace Hopper' }, response: vehicleCheckinExample },
    conflict: {
      codes: [
        'VEHICLE_ALREADY_ON_SITE: the plate has an open visit at this site',
        'SITE_ARCHIVED: the site is archived: it takes no new check-ins',
      ],
      current: VehicleCheckin,
    },
    tag,
    auth: 'token',
    scope: ['vehicles:write', 'kiosk:gate'],
    params: SiteParams,
    body: CreateVehicleCheckinRequest,
    responses: { 201: VehicleCheckin },
    audit: auditManualEntry('vehicle_checkin.created', 'vehicle_checkin'),
    atomicity: 'statement',
    handler: async (ctx) => {
      const { checkin, write } = await createVehicleCheckin(ctx.db, {
        principal: ctx.principal,
        site: siteOf(ctx),
        request: ctx.body,
        now: ctx.now,
      });
      return { status: 201, body: checkin, write };
    },
  }),
  defineRoute({
    method: 'GET',
    path: base,
    summary: 'List the vehicle check-ins of one site, newest entry first (by plate: its open visit first)',
    description:
      "The site's vehicle visits, newest entry first, optionally by statuses (comma-separated) and by plate (compared normalized; its open visit first).",
    examples: { query: { status: 'IN,PENDING' }, response: pageOf(vehicleCheckinExample) },
    tag,
    auth: 'token',
    scope: ['vehicles:read', 'kiosk:gate'],
    params: SiteParams,
    query: VehicleCheckinListQuery,
    responses: { 200: page(VehicleCheckin) },
    handler: async (ctx) => ({
      status: 200,
      body: await searchVehicleCheckins(ctx.db, {
        accountId: ctx.principal.accountId,
        siteIds: [siteOf(ctx).siteId],
        plateNorm: plateNorm(ctx.query.licensePlate),
        status: ctx.query.status,
        kioskSince: kioskWindowOf(ctx.principal, ctx.now),
        limit: ctx.query.limit,
        cursor: ctx.query.cursor,
      }),
    }),
  }),
  readVisitRoute(vehicleVisits, {
    path: `${base}/:checkinId`,
    summary: 'Read one vehicle check-in',
    description:
      "One vehicle visit of the site. A visit of another site is a 404. A gate kiosk's token (`kiosk:gate`) reads its site's visits on site and those whose last event is at most a day old (others are a 404): it re-reads the visit an event names.",
    example: vehicleCheckinExample,
  }),
  ...vehicleActionRoutes,
  defineRoute({
    method: 'POST',
    path: '/checkins/vehicles/search',
    summary: 'Search vehicle check-ins across sites; by plate, its open visit comes first',
    description:
      'Searches the visits of the listed sites (omitted or empty: every site the token can view; a listed site it cannot view is a 404), by plate, statuses and a range of `entry.at` (`to` not before `from`). `overlapsFrom` and `overlapsTo` keep the visits that overlap that range: entered before `overlapsTo`, and left after `overlapsFrom` or not yet left (the rule of the export). A search changes nothing and takes no Idempotency-Key.',
    examples: {
      request: { licensePlate: 'bgh1234', status: ['IN', 'PENDING'] },
      response: pageOf(vehicleCheckinExample),
    },
    tag,
    auth: 'token',
    scope: ['vehicles:read', 'kiosk:gate'],
    body: VehicleCheckinsSearchRequest,
    bodyOptional: true,
    readOnly: true,
    responses: { 200: page(VehicleCheckin) },
    handler: async ({ db, principal, body, now }) => ({
      status: 200,
      body: await searchVehicleCheckins(db, {
        accountId: principal.accountId,
        siteIds: await viewableSites(db, principal, body.siteIds),
        plateNorm: plateNorm(body.licensePlate),
        status: body.status,
        ...searchRangesOf(body),
        kioskSince: kioskWindowOf(principal, now),
        limit: body.limit ?? DEFAULT_PAGE_SIZE,
        cursor: body.cursor,
      }),
    }),
  }),
];
