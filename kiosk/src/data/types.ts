import type { Open } from '../../../shared/src/client/answers';
import type { PersonStatus, VehicleStatus } from '../../../shared/src/domain';
import type {
  CheckoutRequest,
  CreateCheckinRequest,
  DenyRequest,
  PersonCheckin,
  TimedActionRequest,
} from '../../../shared/src/schemas/personCheckins';
import type { CheckinConfig } from '../../../shared/src/schemas/sites';
import type {
  CreateVehicleCheckinRequest,
  VehicleDirectoryEntry,
  VehicleDirectoryLabel,
} from '../../../shared/src/schemas/vehicles';
import type { WatchlistDigest } from '../../../shared/src/schemas/watchlist';

export interface LocalBreak {
  startedAt: string;
  endedAt: string | null;
}

/**
 * A person's status as the kiosk keeps it: one it knows, or one a newer server added, kept as the text it
 * came as. Such a person is still on site and must be on the Roll call, the evacuation list; only what the
 * kiosk may do for them is unknown (no action is offered on it, see personCommands.ts).
 */
export type KeptPersonStatus = Open<PersonStatus>;

/** A person check-in from the server as the kiosk keeps it: its status may be newer than this kiosk (sync/answers.ts). */
export type KeptPersonCheckin = Omit<PersonCheckin, 'status'> & { status: KeptPersonStatus };

/** What the server last said about a person visit (its answer to our action, or a pull). */
export interface ConfirmedPerson {
  status: KeptPersonStatus;
  entryAt: string;
  exitAt: string | null;
  breaks: LocalBreak[];
  updatedAt: string;
  /** The secret its badge's QR code carries (badgeCheckout.ts); absent on visits kept before badges. */
  badgeCode?: string | null;
}

/**
 * A person on (or recently on) site, as the kiosk shows them. The display fields are derived: the
 * server's last word (`confirmed`, or `predicted` before the server has seen the create) with the
 * actions still in the outbox applied on top, so discarding or acknowledging an action can always
 * recompute them (see projection.ts).
 */
export interface PersonVisit {
  /** Local id: a UUID for a visit created here, `server:<checkinId>` for one learnt from a pull. */
  visitId: string;
  siteId: number;
  /** The server's checkinId, once the create is acknowledged (or the visit came from the server). */
  serverId?: number;
  person: { firstName: string; lastName: string; email: string | null; phone: string | null; company: string | null };
  hostName: string | null;
  purpose: string | null;
  status: KeptPersonStatus;
  entryAt: string;
  exitAt: string | null;
  breaks: LocalBreak[];
  lastEventAt: string;
  /** The status the kiosk expected its create to get, used until the server decides (for a visit learnt from the server, its status then). */
  predicted: KeptPersonStatus;
  confirmed: ConfirmedPerson | null;
  /** Device time when server data was last applied (a pull older than that must not overwrite it). */
  syncedAt: number;
}

export interface ConfirmedVehicle {
  status: VehicleStatus;
  entryAt: string;
  exitAt: string | null;
  /** Why the server stopped the vehicle (absent on visits kept before it was). */
  stopReason?: string | null;
  updatedAt: string;
}

/** How an Entry was decided: its status and, for STOP, why in words. */
export interface EntryDecision {
  status: VehicleStatus;
  stopReason: string | null;
}

/** A vehicle visit at the gate; derived like PersonVisit. */
export interface VehicleVisit {
  visitId: string;
  siteId: number;
  serverId?: number;
  /** As the guard entered it (or the server returned it). */
  licensePlate: string;
  /** normalizePlate(licensePlate): what plates are compared by. */
  plateKey: string;
  status: VehicleStatus;
  entryAt: string;
  exitAt: string | null;
  lastEventAt: string;
  /** Why it is stopped, in words (derived like `status`); null unless STOP. Absent on visits kept before it was. */
  stopReason?: string | null;
  driverName?: string | null;
  predicted: VehicleStatus;
  /** The reason that came with a predicted STOP (a blocking label the kiosk's copy of the vehicles knew). */
  predictedStopReason?: string | null;
  /**
   * What the server decided this kiosk's Entry as (its answer to the create), kept so the gate can say
   * when that differs from what it predicted. Absent before the answer, and on visits learnt from a pull.
   */
  entryDecision?: EntryDecision;
  confirmed: ConfirmedVehicle | null;
  syncedAt: number;
}

export type ActionState = 'QUEUED' | 'ATTENTION';

/** One detail of a request the server did not accept (a 422's `errors`): where in the request, and why. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** Why the server refused an action (or why it could not be sent). */
export interface ActionError {
  status: number | null;
  code: string;
  message: string;
  /**
   * The server's list of what it did not accept, kept so a person can see which detail is missing (the
   * `message` alone says only that something is). Absent when the server sent none, and on actions stored
   * before it was kept.
   */
  errors?: FieldProblem[];
}

interface ActionBase {
  /** Per-device sequence number (the outbox's auto-increment key): the order actions happened in. */
  seq: number;
  /** Idempotency-Key: generated once at enqueue, sent on every attempt. */
  key: string;
  /** The visit this action belongs to; actions of one visit are sent in `seq` order. */
  visitId: string;
  siteId: number;
  /** When it happened, by the device clock corrected by the server's (serverClock.ts); also inside `body`. */
  occurredAt: string;
  /**
   * The device clock's own reading it was stamped from (`occurredAt` minus the correction then), so a
   * stamp refused as in the future can be made again with the correction the server's answer brings.
   * Absent on actions queued before it was kept.
   */
  deviceAt?: number;
  state: ActionState;
  /** Failed attempts since the last success or manual retry (the backoff exponent). */
  attempts: number;
  /** Device time before which the action is not sent again. */
  nextAttemptAt: number;
  lastError: ActionError | null;
}

/** One queued request, with its body exactly as it will be sent (the idempotency fingerprint). */
export type OutboxAction = ActionBase &
  (
    | { kind: 'PERSON_CHECKIN'; body: CreateCheckinRequest }
    | { kind: 'PERSON_BREAK_START'; body: TimedActionRequest }
    | { kind: 'PERSON_BREAK_END'; body: TimedActionRequest }
    | { kind: 'PERSON_CHECKOUT'; body: CheckoutRequest }
    | { kind: 'VEHICLE_ENTRY'; body: CreateVehicleCheckinRequest }
    | { kind: 'VEHICLE_EXIT'; body: CheckoutRequest }
    | { kind: 'VEHICLE_APPROVE'; body: TimedActionRequest }
    | { kind: 'VEHICLE_DENY'; body: DenyRequest }
  );

export type ActionKind = OutboxAction['kind'];

/** The actions that create a visit: every later action of the visit depends on them. */
export const isCreate = (kind: ActionKind): boolean => kind === 'PERSON_CHECKIN' || kind === 'VEHICLE_ENTRY';

export const isVehicleAction = (kind: ActionKind): boolean => kind.startsWith('VEHICLE_');

/**
 * A site's check-in form as the kiosk keeps it. `version` names it in the check-ins made on it
 * (`formVersion`, docs/kiosk-sync.md); absent in a copy kept before form versions, or from a server without them.
 */
export type KioskCheckinForm = Omit<CheckinConfig, 'version'> & { version?: number | null };

export interface CachedSiteConfig {
  siteId: number;
  config: KioskCheckinForm;
  etag: string | null;
  /** Device time of the last answer from the server (200 or 304). */
  fetchedAt: number;
}

/** The watchlist digest as last fetched for a site (keyed hashes only: see watchlist.ts). */
export interface CachedWatchlistDigest {
  siteId: number;
  digest: WatchlistDigest;
  etag: string | null;
  /** Device time of the last answer from the server (200 or 304). */
  fetchedAt: number;
}

/** A registered vehicle of the account, as the change feed last said (sync/vehicleDirectoryPull.ts). */
export type KnownVehicleRow = VehicleDirectoryEntry;

/** A vehicle label of the account, as the change feed last said. */
export type VehicleLabelRow = VehicleDirectoryLabel;

/** Settings and bookkeeping, one row per key; settings.ts reads them through zod. */
export interface MetaRow {
  key: string;
  value: unknown;
}
