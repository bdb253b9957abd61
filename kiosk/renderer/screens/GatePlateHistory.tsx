import type { PlateHistory } from '../../src/sync/plateHistory';
import { normalizePlate } from '../../../shared/src/domain';
import { StatusBadge } from '../components/StatusBadge';
import { dayAndTime } from '../words';

/** The chosen plate's history: its result, or that it is being looked up. */
export type ChosenPlate = { plate: string; history: PlateHistory | undefined };

/** A plate's last visits at this site, newest first, with who drove and why a STOP stopped. */
export function GatePlateHistory({ chosen, onClose }: { chosen: ChosenPlate; onClose: () => void }) {
  const { plate, history } = chosen;
  return (
    <section className="gate-side plate-history" aria-labelledby="plate-history-title">
      <div className="plate-history-head">
        <h2 id="plate-history-title">
          Visits of <span className="plate-text">{normalizePlate(plate)}</span>
        </h2>
        <button type="button" className="button button-secondary button-small" onClick={onClose}>
          Close
        </button>
      </div>
      {history === undefined ? <p className="empty">Looking up…</p> : null}
      {history?.visits.length === 0 ? <p className="empty">No visits of this plate at this site.</p> : null}
      {history && history.visits.length > 0 ? (
        <ol className="history-list">
          {history.visits.map((visit) => (
            <li key={visit.key}>
              <StatusBadge status={visit.status} />
              <span className="history-times">
                {dayAndTime(visit.entryAt)}
                {visit.exitAt ? ` – ${dayAndTime(visit.exitAt)}` : ''}
              </span>
              {visit.driverName ? <span className="history-detail">Driver: {visit.driverName}</span> : null}
              {visit.stopReason ? <span className="history-detail history-reason">{visit.stopReason}</span> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {history && !history.fromServer ? (
        <p className="field-hint">The server could not be asked: only the visits this kiosk holds.</p>
      ) : null}
    </section>
  );
}
