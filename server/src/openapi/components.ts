import { z } from 'zod';
import * as admin from '../../../shared/src/schemas/admin';
import * as alerts from '../../../shared/src/schemas/alerts';
import * as audit from '../../../shared/src/schemas/audit';
import * as staff from '../../../shared/src/schemas/staff';
import { Problem } from '../../../shared/src/schemas/common';
import * as invitations from '../../../shared/src/schemas/invitations';
import * as kiosks from '../../../shared/src/schemas/kiosks';
import * as labels from '../../../shared/src/schemas/labels';
import * as people from '../../../shared/src/schemas/personCheckins';
import * as sites from '../../../shared/src/schemas/sites';
import * as tokens from '../../../shared/src/schemas/tokens';
import * as vehicles from '../../../shared/src/schemas/vehicles';
import * as watchlist from '../../../shared/src/schemas/watchlist';
import * as webhooks from '../../../shared/src/schemas/webhooks';
import * as visit from '../../../shared/src/schemas/visit';

/**
 * The request and resource schemas the OpenAPI document names (components/schemas, referenced where they
 * appear), so a generated client has the types the interface document speaks of (`CreateCheckinRequest`,
 * `PeopleCheckinsSearchRequest`, `VehicleResponse`) and ours, instead of a shape written out at every use.
 * A registry of its own: the schemas themselves stay as they are.
 */
export const namedSchemas = z.registry<{ id: string }>();

/** Problem details as documented: `current` is declared per operation, as the resource its 409 carries. */
export const DocumentedProblem = Problem.omit({ current: true });

const named: Array<[z.ZodType, string]> = [
  [DocumentedProblem, 'Problem'],
  // People
  [people.CreateCheckinRequest, 'CreateCheckinRequest'],
  [people.CheckoutRequest, 'CheckoutRequest'],
  [people.TimedActionRequest, 'TimedActionRequest'],
  [people.DenyRequest, 'DenyRequest'],
  [people.PeopleCheckinsSearchRequest, 'PeopleCheckinsSearchRequest'],
  [people.PersonCheckin, 'PersonCheckin'],
  [sites.Site, 'Site'],
  [visit.VisitCheckinRequest, 'VisitCheckinRequest'],
  [visit.VisitCheckin, 'VisitCheckin'],
  [visit.VisitSite, 'VisitSite'],
  [sites.CheckinConfig, 'CheckinConfig'],
  [sites.CheckinConfigUpdate, 'CheckinConfigUpdate'],
  [sites.CreateSiteBody, 'CreateSiteBody'],
  [sites.UpdateSiteRequest, 'UpdateSiteRequest'],
  [labels.PersonLabel, 'PersonLabel'],
  [labels.CreatePersonLabelRequest, 'CreatePersonLabelRequest'],
  [labels.UpdatePersonLabelRequest, 'UpdatePersonLabelRequest'],
  [watchlist.WatchlistEntry, 'WatchlistEntry'],
  [watchlist.CreateWatchlistEntryRequest, 'CreateWatchlistEntryRequest'],
  [watchlist.WatchlistDigest, 'WatchlistDigest'],
  // Vehicles (the interface calls the vehicle resource, as a create answers it, VehicleResponse)
  [vehicles.Vehicle, 'VehicleResponse'],
  [vehicles.CreateVehicleRequest, 'CreateVehicleRequest'],
  [vehicles.UpdateVehicleRequest, 'UpdateVehicleRequest'],
  [vehicles.VehicleLabelsRequest, 'VehicleLabelsRequest'],
  [vehicles.VehicleLabel, 'VehicleLabel'],
  [vehicles.CreateVehicleLabelRequest, 'CreateVehicleLabelRequest'],
  [vehicles.UpdateVehicleLabelRequest, 'UpdateVehicleLabelRequest'],
  [vehicles.VehicleCheckin, 'VehicleCheckin'],
  [vehicles.CreateVehicleCheckinRequest, 'CreateVehicleCheckinRequest'],
  [vehicles.VehicleCheckinsSearchRequest, 'VehicleCheckinsSearchRequest'],
  // Webhooks
  [webhooks.CreateWebhookSubscriptionRequest, 'CreateWebhookSubscriptionRequest'],
  [webhooks.UpdateWebhookSubscriptionRequest, 'UpdateWebhookSubscriptionRequest'],
  [webhooks.WebhookSubscription, 'WebhookSubscription'],
  [webhooks.CreatedWebhookSubscription, 'CreatedWebhookSubscription'],
  [webhooks.WebhookDelivery, 'WebhookDelivery'],
  // Management API
  [admin.CreateAccountRequest, 'CreateAccountRequest'],
  [admin.Account, 'Account'],
  [admin.CreateSiteRequest, 'CreateSiteRequest'],
  [admin.AdminSite, 'AdminSite'],
  [admin.CreateTokenRequest, 'CreateTokenRequest'],
  [admin.UpdateTokenRequest, 'UpdateTokenRequest'],
  [admin.Token, 'Token'],
  [admin.CreatedToken, 'CreatedToken'],
  // API tokens and kiosks
  [tokens.CreateApiTokenRequest, 'CreateApiTokenRequest'],
  [kiosks.Kiosk, 'Kiosk'],
  [kiosks.CreateKioskRequest, 'CreateKioskRequest'],
  [kiosks.CreatedKiosk, 'CreatedKiosk'],
  [kiosks.PairingCode, 'PairingCode'],
  [kiosks.PairKioskRequest, 'PairKioskRequest'],
  [kiosks.PairedKiosk, 'PairedKiosk'],
  [kiosks.HeartbeatRequest, 'HeartbeatRequest'],
  // Staff accounts
  [staff.StaffUser, 'StaffUser'],
  [staff.SignInRequest, 'SignInRequest'],
  [staff.ChangePasswordRequest, 'ChangePasswordRequest'],
  [staff.SetupRequest, 'SetupRequest'],
  [staff.RedeemLinkRequest, 'RedeemLinkRequest'],
  [staff.LinkInfo, 'LinkInfo'],
  [staff.CreateUserRequest, 'CreateUserRequest'],
  [staff.UpdateUserRequest, 'UpdateUserRequest'],
  [staff.CreatedUser, 'CreatedUser'],
  [staff.Actor, 'Actor'],
  [alerts.Alert, 'Alert'],
  [audit.AuditEvent, 'AuditEvent'],
  // Invitations and passes
  [invitations.Invitation, 'Invitation'],
  [invitations.CreateInvitationRequest, 'CreateInvitationRequest'],
  [invitations.UpdateInvitationRequest, 'UpdateInvitationRequest'],
  [invitations.InvitationPass, 'InvitationPass'],
  [invitations.PassJwk, 'PassJwk'],
  [invitations.KioskPasses, 'KioskPasses'],
];
for (const [schema, id] of named) namedSchemas.add(schema, { id });
