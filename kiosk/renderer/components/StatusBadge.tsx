import { isKnown } from '../../../shared/src/client/answers';
import { type VehicleStatus, personStatuses, vehicleStatuses } from '../../../shared/src/domain';
import type { KeptPersonStatus } from '../../src/data/types';

const coloured: readonly string[] = [...personStatuses, ...vehicleStatuses];

/**
 * The status as a coloured pill; the text itself is the status, so colour is never the only cue. A person's
 * status newer than this kiosk shows in the plain pill: its text, whatever it is, must not pick up the
 * colour (or make up class names) of a status this kiosk knows.
 */
export function StatusBadge({ status, label }: { status: KeptPersonStatus | VehicleStatus; label?: string }) {
  const tone = isKnown(coloured, status) ? ` badge-${status.toLowerCase().replace('_', '-')}` : '';
  return <span className={`badge${tone}`}>{label ?? status}</span>;
}
