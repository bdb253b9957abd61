import { type FormEvent, useRef, useState } from 'react';
import { normalizePlate } from '../../../shared/src/domain';
import type { VehicleStatus } from '../../../shared/src/domain';
import type { Kiosk } from '../../src/kiosk';
import type { CommandResult } from '../../src/data/command';
import type { VehicleVisit } from '../../src/data/types';
import { Icon } from '../components/Icon';
import { StatusBadge } from '../components/StatusBadge';
import { useObservable } from '../hooks/useObservable';
import { useScannerFocus } from '../hooks/useScannerFocus';
import { plainReason, shortTime, vehicleStatusWords } from '../words';

/**
 * The input after `submitted` was recorded: the scanner may have typed the next plate while the action
 * was busy, and that must survive. If the input was edited meanwhile, it is kept as it is.
 */
function afterRecorded(current: string, submitted: string): string {
  return current.startsWith(submitted) ? current.slice(submitted.length).trimStart() : current;
}

type Result = { kind: 'visit'; visit: VehicleVisit; action: 'Entry' | 'Exit' } | { kind: 'refused'; plate: string; message: string };

/**
 * The guard's screen. The plate input keeps the focus, so a keyboard-wedge scanner can type a plate and
 * its Enter records the Entry; Exit is one press away. The result names the plate and its status, and
 * follows the server's decision live (PENDING until the server says IN, PENDING or STOP).
 */
export function GateScreen({ kiosk }: { kiosk: Kiosk }) {
  const [plate, setPlate] = useState('');
  const [result, setResult] = useState<Result>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const onSite = useObservable(kiosk.vehiclesOnSite) ?? [];
  useScannerFocus(input);

  const record = async (action: 'Entry' | 'Exit') => {
    const submitted = plate;
    const typed = submitted.trim();
    if (busy) return;
    if (typed === '') {
      setResult({ kind: 'refused', plate: '', message: 'Type or scan a license plate first.' });
      input.current?.focus();
      return;
    }
    setBusy(true);
    const outcome: CommandResult<VehicleVisit> = action === 'Entry' ? await kiosk.vehicleEntry(typed) : await kiosk.vehicleExit(typed);
    setBusy(false);
    if (outcome.ok) {
      setResult({ kind: 'visit', visit: outcome.value, action });
      setPlate((current) => afterRecorded(current, submitted));
    } else {
      // The plate stays in the input, so a vehicle refused at Entry (already on site) can leave with one press.
      setResult({ kind: 'refused', plate: typed, message: plainReason(outcome.code, outcome.message) });
    }
    input.current?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void record('Entry');
  };

  // The live copy of the visit shown, so the result changes when the server decides.
  const live = result?.kind === 'visit' ? onSite.find((visit) => visit.visitId === result.visit.visitId) : undefined;
  const status: VehicleStatus | undefined = result?.kind === 'visit' ? (live?.status ?? result.visit.status) : undefined;

  return (
    <div className="gate">
      <section className="gate-main">
        <form className="gate-form" onSubmit={submit} autoComplete="off">
          <label htmlFor="license-plate" className="gate-label">License plate</label>
          <input ref={input} id="license-plate" className="plate-input" autoFocus spellCheck={false} autoCapitalize="characters"
            value={plate} onChange={(event) => setPlate(event.target.value)} placeholder="AB-123 CD" aria-describedby="plate-hint" />
          <p id="plate-hint" className="field-hint">Scan or type the plate. Enter records an Entry.</p>
          <div className="gate-buttons">
            <button type="submit" className="button button-go button-large" disabled={busy}>Entry</button>
            <button type="button" className="button button-strong button-large" disabled={busy} onClick={() => void record('Exit')}>Exit</button>
          </div>
        </form>
        <div className="gate-result" aria-live="polite" aria-label="Result">
          {result?.kind === 'visit' && status ? (
            <div className={`result-card result-${status.toLowerCase()}`}>
              <span className="result-action">{result.action} recorded</span>
              <span className="result-plate">{result.visit.licensePlate}</span>
              <span className="result-status"><StatusBadge status={status} /> {vehicleStatusWords[status]}</span>
            </div>
          ) : null}
          {result?.kind === 'refused' ? (
            <div className="result-card result-refused">
              <span className="result-action">Not recorded</span>
              {result.plate ? <span className="result-plate">{result.plate}</span> : null}
              <span className="result-message">{result.message}</span>
            </div>
          ) : null}
          {!result ? <p className="result-empty"><Icon name="car" size={40} /> Waiting for a vehicle</p> : null}
        </div>
      </section>
      <aside className="gate-side" aria-labelledby="on-site-title">
        <h2 id="on-site-title">On site now <span className="count">{onSite.length}</span></h2>
        {onSite.length === 0 ? <p className="empty">No vehicles on site.</p> : null}
        <ul className="vehicle-list">
          {onSite.map((visit) => (
            <li key={visit.visitId} className={normalizePlate(plate) !== '' && visit.plateKey === normalizePlate(plate) ? 'is-match' : undefined}>
              <span className="vehicle-plate">{visit.licensePlate}</span>
              <StatusBadge status={visit.status} />
              <span className="vehicle-time">{shortTime(visit.entryAt)}</span>
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}
