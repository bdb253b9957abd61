import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type {
  CachedSiteConfig,
  CachedWatchlistDigest,
  KnownVehicleRow,
  MetaRow,
  OutboxAction,
  PersonVisit,
  VehicleLabelRow,
  VehicleVisit,
} from './types';

/**
 * Schema versions, oldest first. Append only: a shipped version is never edited, because kiosks in the
 * field hold databases at every version and Dexie upgrades them step by step. A change of data shape
 * goes into the new version's `upgrade`, which runs inside Dexie's upgrade transaction.
 */
const schemaVersions: ReadonlyArray<{ version: number; stores: Record<string, string> }> = [
  {
    version: 1,
    stores: {
      outbox: '++seq, visitId, [visitId+seq], state',
      people: 'visitId, &serverId, siteId, [siteId+status]',
      vehicles: 'visitId, &serverId, siteId, [siteId+plateKey], [siteId+status]',
      siteConfigs: 'siteId',
      meta: 'key',
    },
  },
  // The account's watchlist as keyed hashes (no names), per paired site: nothing to upgrade, a new store.
  { version: 2, stores: { watchlistDigests: 'siteId' } },
  {
    // The account's registered vehicles and vehicle labels, as the gate decides by offline (vehicleDirectory.ts).
    version: 3,
    stores: {
      knownVehicles: 'vehicleId, plateKey',
      vehicleLabels: 'labelId',
    },
  },
];

/** The kiosk's IndexedDB: the outbox and the local view it keeps in step with. */
export class KioskDatabase extends Dexie {
  outbox!: EntityTable<OutboxAction, 'seq'>;
  people!: EntityTable<PersonVisit, 'visitId'>;
  vehicles!: EntityTable<VehicleVisit, 'visitId'>;
  siteConfigs!: EntityTable<CachedSiteConfig, 'siteId'>;
  meta!: EntityTable<MetaRow, 'key'>;
  watchlistDigests!: EntityTable<CachedWatchlistDigest, 'siteId'>;
  /** Registered vehicles (not visits: those are `vehicles`), from the server's change feed. */
  knownVehicles!: EntityTable<KnownVehicleRow, 'vehicleId'>;
  vehicleLabels!: EntityTable<VehicleLabelRow, 'labelId'>;

  /** `options` carries `indexedDB` and `IDBKeyRange` where there is no global IndexedDB (Node tests). */
  constructor(name: string, options?: DexieOptions) {
    super(name, options);
    for (const { version, stores } of schemaVersions) this.version(version).stores(stores);
  }
}
