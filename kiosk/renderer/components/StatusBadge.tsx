import type { PersonStatus, VehicleStatus } from '../../../shared/src/domain';

/** The status as a coloured pill; the text itself is the status, so colour is never the only cue. */
export function StatusBadge({ status, label }: { status: PersonStatus | VehicleStatus; label?: string }) {
  return <span className={`badge badge-${status.toLowerCase().replace('_', '-')}`}>{label ?? status}</span>;
}
