import * as foundation from './0001_foundation';
import * as vehicles from './0002_vehicles';
import * as webhooks from './0003_webhooks';
import * as rateLimits from './0004_rate_limits';
import * as leanDeliveries from './0005_lean_deliveries';
import * as outboxQueue from './0006_outbox_queue';
import * as staleWrite from './0007_stale_write';
import * as subscriptionTombstones from './0008_subscription_tombstones';
import * as plateNfkc from './0009_plate_nfkc';
import * as subscriptionPeriods from './0010_subscription_periods';
import * as sourceIndexes from './0011_source_indexes';
import * as standardFieldTypes from './0012_standard_field_types';
import * as watchlistScope from './0013_watchlist_scope';
import * as gateVehicles from './0014_gate_vehicles';
import * as fairDeliveryClaims from './0015_fair_delivery_claims';
import * as staff from './0016_staff';
import * as privacy from './0017_privacy';
import * as kiosks from './0018_kiosks';
import * as stayIndexes from './0019_stay_indexes';
import * as operatorAudit from './0020_operator_audit';
import * as formVersions from './0021_form_versions';
import * as raisedAlerts from './0022_raised_alerts';
import * as badges from './0029_badges';
import * as languages from './0033_languages';
import type { MigrationFn } from './types';

/** Append-only: add a file and a line; never edit one that has shipped. */
export const migrations: Array<{ name: string; up: MigrationFn }> = [
  { name: '0001_foundation', up: foundation.up },
  { name: '0002_vehicles', up: vehicles.up },
  { name: '0003_webhooks', up: webhooks.up },
  { name: '0004_rate_limits', up: rateLimits.up },
  { name: '0005_lean_deliveries', up: leanDeliveries.up },
  { name: '0006_outbox_queue', up: outboxQueue.up },
  { name: '0007_stale_write', up: staleWrite.up },
  { name: '0008_subscription_tombstones', up: subscriptionTombstones.up },
  { name: '0009_plate_nfkc', up: plateNfkc.up },
  { name: '0010_subscription_periods', up: subscriptionPeriods.up },
  { name: '0011_source_indexes', up: sourceIndexes.up },
  { name: '0012_standard_field_types', up: standardFieldTypes.up },
  { name: '0013_watchlist_scope', up: watchlistScope.up },
  { name: '0014_gate_vehicles', up: gateVehicles.up },
  { name: '0015_fair_delivery_claims', up: fairDeliveryClaims.up },
  { name: '0016_staff', up: staff.up },
  { name: '0017_privacy', up: privacy.up },
  { name: '0018_kiosks', up: kiosks.up },
  { name: '0019_stay_indexes', up: stayIndexes.up },
  { name: '0020_operator_audit', up: operatorAudit.up },
  { name: '0021_form_versions', up: formVersions.up },
  { name: '0022_raised_alerts', up: raisedAlerts.up },
  { name: '0029_badges', up: badges.up },
  { name: '0033_languages', up: languages.up },
];
