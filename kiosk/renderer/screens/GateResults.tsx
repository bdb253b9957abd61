import { Icon } from '../components/Icon';
import { StatusBadge } from '../components/StatusBadge';
import { vehicleStatusWords } from '../words';
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

function ResultCard({ result, earlier }: { result: GateResult; earlier: boolean }) {
  if (result.kind === 'refused') return <RefusalCard plate={result.plate} message={result.message} earlier={earlier} />;
  const { status, licensePlate } = result.visit;
  return (
    <div className={`result-card result-${status.toLowerCase()}${earlier ? ' result-earlier' : ''}`}>
      <span className="result-action">{result.action} recorded</span>
      <span className="result-plate">{licensePlate}</span>
      <span className="result-status"><StatusBadge status={status} /> {vehicleStatusWords[status]}</span>
    </div>
  );
}

/**
 * The gate's recent results, newest first and largest, so one that comes at once after another (a scan
 * remembered while a refused action ran) does not hide it. A notice (why nothing happened) goes above them.
 * One live region: a new card, and a card's status changing, are read out.
 */
export function GateResults({ results, notice }: { results: readonly GateResult[]; notice: string | undefined }) {
  return (
    <div className="gate-result" aria-live="polite" aria-label="Result">
      {notice !== undefined ? <RefusalCard plate="" message={notice} earlier={false} /> : null}
      {results.length > 0 ? (
        <ol className="result-list">
          {results.map((result, index) => (
            <li key={result.id}><ResultCard result={result} earlier={index > 0 || notice !== undefined} /></li>
          ))}
        </ol>
      ) : null}
      {results.length === 0 && notice === undefined ? <p className="result-empty"><Icon name="car" size={40} /> Waiting for a vehicle</p> : null}
    </div>
  );
}
