import type { FormEvent, RefObject } from 'react';
import { normalizePlate } from '../../../shared/src/domain';
import type { VehicleVisit } from '../../src/data/types';
import { StatusBadge } from '../components/StatusBadge';
import type { GateActions } from '../hooks/useGateActions';
import { useScannerFocus } from '../hooks/useScannerFocus';
import { shortTime } from '../words';
import { GateResults } from './GateResults';

interface GateScreenProps {
  actions: GateActions;
  onSite: readonly VehicleVisit[];
  /** The plate input, which the actions focus again when one ends. */
  input: RefObject<HTMLInputElement | null>;
}

/**
 * The guard's screen. The plate input keeps the focus, so a keyboard-wedge scanner can type a plate and
 * its Enter records the Entry; Exit is one press away. The recent results name their plates and statuses,
 * and follow the server's decisions live (PENDING until the server says IN, PENDING or STOP). What it shows
 * is kept by GateDesk, so leaving the tab and coming back loses nothing.
 */
export function GateScreen({ actions, onSite, input }: GateScreenProps) {
  const { plate, setPlate, results, notice, busy, press, onPlateKeyDown } = actions;
  useScannerFocus(input);

  // Only a press on the Entry button gets here: the input handles its own Enter.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    press('Entry');
  };

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
        <GateResults results={results} notice={notice} />
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
