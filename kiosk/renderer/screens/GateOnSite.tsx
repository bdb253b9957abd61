import { normalizePlate } from '../../../shared/src/domain';
import type { VehicleVisit } from '../../src/data/types';
import { StatusBadge } from '../components/StatusBadge';
import { shortTime } from '../words';
import { DecisionButtons, type GateDeciding } from './GateDecision';

interface GateOnSiteProps {
  /** Vehicles let in (IN) or waiting for a guard (PENDING), newest first. */
  onSite: readonly VehicleVisit[];
  /** What the plate input holds: its vehicle is marked. */
  typed: string;
  onChoose: (plate: string) => void;
  deciding: GateDeciding;
}

/** The vehicles on site: a plate is a button that shows its last visits; a waiting one can be admitted or refused here. */
export function GateOnSite({ onSite, typed, onChoose, deciding }: GateOnSiteProps) {
  const typedKey = normalizePlate(typed);
  return (
    <section className="gate-side" aria-labelledby="on-site-title">
      <h2 id="on-site-title">
        On site now <span className="count">{onSite.length}</span>
      </h2>
      {onSite.length === 0 ? <p className="empty">No vehicles on site.</p> : null}
      <ul className="vehicle-list">
        {onSite.map((visit) => (
          <li key={visit.visitId} className={typedKey !== '' && visit.plateKey === typedKey ? 'is-match' : undefined}>
            <button type="button" className="vehicle-plate plate-choice" onClick={() => onChoose(visit.licensePlate)}>
              {visit.plateKey}
            </button>
            <StatusBadge status={visit.status} />
            <span className="vehicle-time">{shortTime(visit.entryAt)}</span>
            <DecisionButtons visit={visit} deciding={deciding} compact />
          </li>
        ))}
      </ul>
    </section>
  );
}
