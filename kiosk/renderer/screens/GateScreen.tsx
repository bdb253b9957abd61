import { type FormEvent, type KeyboardEvent, type RefObject, useState } from 'react';
import type { VehicleVisit } from '../../src/data/types';
import type { GateActions } from '../hooks/useGateActions';
import type { VehicleLookup } from '../hooks/useKnownVehicles';
import { useScannerFocus } from '../hooks/useScannerFocus';
import { type GateDeciding, RefuseDialog } from './GateDecision';
import { GateOnSite } from './GateOnSite';
import { type ChosenPlate, GatePlateHistory } from './GatePlateHistory';
import { GateResults } from './GateResults';
import './gate.css';
import './gateHeader.css';

interface GateScreenProps {
  actions: GateActions;
  onSite: readonly VehicleVisit[];
  /** The plate input, which the actions focus again when one ends. */
  input: RefObject<HTMLInputElement | null>;
  /** The plate whose last visits are shown, if the guard chose one. */
  chosen: ChosenPlate | undefined;
  onChoose: (plate: string | undefined) => void;
  /** The gate's copy of the registered vehicles, for the cards' make, model and colour. */
  vehicles: VehicleLookup;
}

/**
 * The guard's screen. The plate input keeps the focus, so a keyboard-wedge scanner can type a plate and
 * its Enter records the Entry; Exit is one press away, and a driver's name can go with an Entry. The recent
 * results name their plates and statuses and follow the server's decisions live; a PENDING vehicle is
 * admitted or refused on its card or its row of the on-site list. What it shows is kept by GateDesk, so
 * leaving the tab and coming back loses nothing.
 */
export function GateScreen({ actions, onSite, input, chosen, onChoose, vehicles }: GateScreenProps) {
  const { plate, setPlate, driverName, setDriverName, results, notice, busy, press, onPlateKeyDown, decide } = actions;
  const [refusing, setRefusing] = useState<VehicleVisit>();
  useScannerFocus(input);

  // Only a press on the Entry button gets here: the plate input and the driver's name handle their own Enter.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    press('Entry');
  };
  // Enter after the driver's name: the Entry, if a plate is typed; else back to the plate input, so the
  // scanner's plate (and its Enter) lands there and records the Entry with this driver.
  const onDriverKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (plate.trim() !== '') press('Entry');
    else input.current?.focus();
  };
  const deciding: GateDeciding = {
    admit: (visit) => void decide(visit, 'Admit'),
    refuse: (visit) => setRefusing(visit),
  };
  const choose = (chosenPlate: string) => {
    onChoose(chosenPlate);
    // On a phone the visits show under the results: bring them into view.
    requestAnimationFrame(() => document.getElementById('plate-history-title')?.scrollIntoView({ block: 'nearest' }));
  };

  return (
    <div className="gate">
      <section className="gate-main">
        <form className="gate-form" onSubmit={submit} autoComplete="off">
          <label htmlFor="license-plate" className="gate-label">
            License plate
          </label>
          <input
            ref={input}
            id="license-plate"
            className="plate-input"
            autoFocus
            spellCheck={false}
            autoCapitalize="characters"
            value={plate}
            onChange={(event) => setPlate(event.target.value)}
            onKeyDown={onPlateKeyDown}
            placeholder="AB-123 CD"
            aria-describedby="plate-hint"
          />
          <p id="plate-hint" className="field-hint">
            Scan or type the plate. Enter records an Entry.
          </p>
          <div className="gate-entry-row">
            <div className="field driver-field">
              <div className="field-label-row">
                <label htmlFor="driver-name">Driver name</label>
                <span id="driver-hint" className="field-hint">
                  Optional
                </span>
              </div>
              <input
                id="driver-name"
                type="text"
                maxLength={200}
                spellCheck={false}
                value={driverName}
                aria-describedby="driver-hint"
                onChange={(event) => setDriverName(event.target.value)}
                onKeyDown={onDriverKeyDown}
              />
            </div>
            <div className="gate-buttons">
              <button type="submit" className="button button-go button-large" disabled={busy}>
                Entry
              </button>
              <button
                type="button"
                className="button button-strong button-large"
                disabled={busy}
                onClick={() => press('Exit')}
              >
                Exit
              </button>
            </div>
          </div>
        </form>
        <GateResults results={results} notice={notice} actions={{ deciding, onChoose: choose, vehicles }} />
      </section>
      <div className="gate-aside">
        {chosen ? <GatePlateHistory chosen={chosen} onClose={() => onChoose(undefined)} /> : null}
        <GateOnSite onSite={onSite} typed={plate} onChoose={choose} deciding={deciding} />
      </div>
      {refusing ? (
        <RefuseDialog
          visit={refusing}
          onCancel={() => setRefusing(undefined)}
          onConfirm={(reason) => {
            setRefusing(undefined);
            void decide(refusing, 'Refuse', reason);
          }}
        />
      ) : null}
    </div>
  );
}
