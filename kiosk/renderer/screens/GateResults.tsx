import { Icon } from '../components/Icon';
import { StatusBadge } from '../components/StatusBadge';
import { entryOverruled, vehicleStatusWords } from '../words';
import { DecisionButtons, type GateDeciding } from './GateDecision';
import type { GateResult } from './recentResults';

function RefusalCard({ plate, message, earlier }: { plate: string; message: string; earlier: boolean }) {
  return (
    <div className={`result-card result-refused${earlier ? ' result-earlier' : ''}`}>
      <span className="result-action">Not recorded</span>
      {plate ? <span className="result-plate">{plate}</span> : null}
      <span className="result-message">{message}</span>
    </div>
  );
}

interface CardActions {
  deciding: GateDeciding;
  onChoose: (plate: string) => void;
}

function ResultCard({ result, earlier, actions }: { result: GateResult; earlier: boolean; actions: CardActions }) {
  if (result.kind === 'refused') return <RefusalCard plate={result.plate} message={result.message} earlier={earlier} />;
  const { visit } = result;
  const { status, licensePlate } = visit;
  const overruled = entryOverruled(visit);
  // The server's note names its reason already: the reason is not said twice.
  const reason =
    status === 'STOP' && !(overruled && visit.entryDecision?.stopReason === visit.stopReason) ? visit.stopReason : null;
  return (
    <div
      className={`result-card result-${status.toLowerCase()}${earlier ? ' result-earlier' : ''}${status === 'PENDING' ? ' has-decision' : ''}`}
    >
      <span className="result-action">{result.action} recorded</span>
      <button type="button" className="result-plate plate-choice" onClick={() => actions.onChoose(licensePlate)}>
        {licensePlate}
      </button>
      <span className="result-status">
        <StatusBadge status={status} /> {vehicleStatusWords[status]}
      </span>
      {reason ? <span className="result-reason">{reason}</span> : null}
      {visit.driverName ? <span className="result-detail">Driver: {visit.driverName}</span> : null}
      {overruled ? <span className={`result-changed${status === 'STOP' ? ' is-stop' : ''}`}>{overruled}</span> : null}
      <DecisionButtons visit={visit} deciding={actions.deciding} compact={earlier} />
    </div>
  );
}

/**
 * The gate's recent results, newest first and largest, so one that comes at once after another (a scan
 * remembered while a refused action ran) does not hide it. A notice (why nothing happened) goes above them.
 * One live region: a new card, and a card's status changing, are read out. A PENDING card offers Admit and
 * Refuse; its plate shows the plate's last visits.
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
