import { type FormEvent, useRef } from 'react';
import { normalizePlate } from '../../../shared/src/domain';
import type { VehicleStatus } from '../../../shared/src/domain';
import type { Kiosk } from '../../src/kiosk';
import { Icon } from '../components/Icon';
import { StatusBadge } from '../components/StatusBadge';
import { useGateActions } from '../hooks/useGateActions';
import { useObservable } from '../hooks/useObservable';
import { useScannerFocus } from '../hooks/useScannerFocus';
import { shortTime, vehicleStatusWords } from '../words';

/**
 * The guard's screen. The plate input keeps the focus, so a keyboard-wedge scanner can type a plate and
 * its Enter records the Entry; Exit is one press away. The result names the plate and its status, and
 * follows the server's decision live (PENDING until the server says IN, PENDING or STOP).
 */
export function GateScreen({ kiosk }: { kiosk: Kiosk }) {
  const input = useRef<HTMLInputElement>(null);
  const { plate, setPlate, result, busy, press, onPlateKeyDown } = useGateActions(kiosk, () => input.current?.focus());
  const onSite = useObservable(kiosk.vehiclesOnSite) ?? [];
  useScannerFocus(input);

  // Only a press on the Entry button gets here: the input handles its own Enter.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    press('Entry');
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
            value={plate} onChange={(event) => setPlate(event.target.value)} onKeyDown={onPlateKeyDown} placeholder="AB-123 CD" aria-describedby="plate-hint" />
          <p id="plate-hint" className="field-hint">Scan or type the plate. Enter records an Entry.</p>
          <div className="gate-buttons">
            <button type="submit" className="button button-go button-large" disabled={busy}>Entry</button>
            <button type="button" className="button button-strong button-large" disabled={busy} onClick={() => press('Exit')}>Exit</button>
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
