import { normalizePlate } from '../../../shared/src/domain';
import type { VehicleVisit } from '../../src/data/types';
import { Icon } from '../components/Icon';
import { StatusBadge } from '../components/StatusBadge';
import type { VehicleLookup } from '../hooks/useKnownVehicles';
import { entryOverruled, gateCardHeading, vehicleDescription } from '../words';
import { DecisionButtons, type GateDeciding } from './GateDecision';
import type { GateAction, GateResult } from './recentResults';
import './gateResults.css';

function RefusalCard({ plate, message, earlier }: { plate: string; message: string; earlier: boolean }) {
  return (
    <div className={`result-card result-refused${earlier ? ' result-earlier' : ''}`}>
      <h2 className="result-heading">Not recorded</h2>
      {plate ? <span className="result-plate">{normalizePlate(plate)}</span> : null}
      <p className="result-message">{message}</p>
    </div>
  );
}

interface CardActions {
  deciding: GateDeciding;
  onChoose: (plate: string) => void;
  vehicles: VehicleLookup;
}

/** What the gate's copy of the registered vehicles says of the plate: make, model and colour, or unknown. */
function VehicleLine({ visit, vehicles }: { visit: VehicleVisit; vehicles: VehicleLookup }) {
  const known = vehicles(visit.plateKey);
  if (known === undefined) return null;
  return <p className="result-vehicle">{known ? vehicleDescription(known) : 'Unknown vehicle'}</p>;
}

/**
 * When the server decided this kiosk's Entry otherwise than it predicted: a banner of its own, read out at
 * once (role="alert"). Only on the card of that Entry, while the car is there: an Exit card, or the Entry's
 * card once the car has left, is about something else.
 */
function OverruledBanner({ visit, action }: { visit: VehicleVisit; action: GateAction }) {
  const overruled = action === 'Entry' && visit.status !== 'OUT' ? entryOverruled(visit) : undefined;
  if (!overruled) return null;
  return (
    <p className={`result-overruled${visit.entryDecision?.status === 'STOP' ? ' is-stop' : ''}`} role="alert">
      <Icon name="alert" size={22} /> {overruled}
    </p>
  );
}

function ResultCard({ result, earlier, actions }: { result: GateResult; earlier: boolean; actions: CardActions }) {
  if (result.kind === 'refused') return <RefusalCard plate={result.plate} message={result.message} earlier={earlier} />;
  const { visit, action } = result;
  const { status } = visit;
  const overruled = action === 'Entry' && status !== 'OUT' && entryOverruled(visit) !== undefined;
  // The banner names the server's reason already: the reason is not said twice.
  const reason =
    status === 'STOP' && !(overruled && visit.entryDecision?.stopReason === visit.stopReason) ? visit.stopReason : null;
  return (
    <div
      className={`result-card result-${status.toLowerCase()}${earlier ? ' result-earlier' : ''}${status === 'PENDING' ? ' has-decision' : ''}`}
    >
      <h2 className="result-heading">{gateCardHeading(action, status)}</h2>
      <div className="result-line">
        <button
          type="button"
          className="result-plate plate-choice"
          onClick={() => actions.onChoose(visit.licensePlate)}
        >
          {visit.plateKey}
        </button>
        <StatusBadge status={status} />
      </div>
      {reason ? <p className="result-reason">{reason}</p> : null}
      <VehicleLine visit={visit} vehicles={actions.vehicles} />
      {visit.driverName ? <p className="result-detail">Driver: {visit.driverName}</p> : null}
      <OverruledBanner visit={visit} action={action} />
      <DecisionButtons visit={visit} deciding={actions.deciding} compact={earlier} />
    </div>
  );
}

/**
 * The gate's recent results, newest first and largest, so one that comes at once after another (a scan
 * remembered while a refused action ran) does not hide it. A notice (why nothing happened) goes above them.
 * One live region: a new card, and a card's status changing, are read out. Each card is headed by what
 * happened (Entry allowed, Waiting for a decision, Entry refused, Exit recorded), names the plate as the
 * gate compares it (normalized) and the vehicle as registered; a PENDING card offers Admit and Refuse; its
 * plate shows the plate's last visits.
 */
export function GateResults({
  results,
  notice,
  actions,
}: {
  results: readonly GateResult[];
  notice: string | undefined;
  actions: CardActions;
}) {
  return (
    <div className="gate-result" aria-live="polite" aria-label="Result">
      {notice !== undefined ? <RefusalCard plate="" message={notice} earlier={false} /> : null}
      {results.length > 0 ? (
        <ol className="result-list">
          {results.map((result, index) => (
            <li key={result.id}>
              <ResultCard result={result} earlier={index > 0 || notice !== undefined} actions={actions} />
            </li>
          ))}
        </ol>
      ) : null}
      {results.length === 0 && notice === undefined ? (
        <p className="result-empty">
          <Icon name="car" size={40} /> Waiting for a vehicle
        </p>
      ) : null}
    </div>
  );
}
