import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { VehicleVisit } from '../../src/data/types';
import './gate.css';

/** What the gate's screens call when a guard decides on a PENDING vehicle. */
export interface GateDeciding {
  admit: (visit: VehicleVisit) => void;
  /** Opens the Refuse dialog for the visit (the refusal is recorded when it is confirmed). */
  refuse: (visit: VehicleVisit) => void;
}

/** Admit and Refuse for a vehicle waiting at the gate (PENDING): on its result card and its row of the on-site list. */
export function DecisionButtons({
  visit,
  deciding,
  compact = false,
}: {
  visit: VehicleVisit;
  deciding: GateDeciding;
  compact?: boolean;
}) {
  if (visit.status !== 'PENDING') return null;
  const size = compact ? '' : ' button-decide';
  return (
    <div className={`decision-buttons${compact ? ' is-compact' : ''}`}>
      <button type="button" className={`button button-go${size}`} onClick={() => deciding.admit(visit)}>
        Admit
      </button>
      <button type="button" className={`button button-danger${size}`} onClick={() => deciding.refuse(visit)}>
        Refuse
      </button>
    </div>
  );
}

const REASON_MAX = 500;

/**
 * Asks for an optional reason before a vehicle is refused, confirmed with Refuse. Modal, so the scanner's
 * focus keeper leaves the Reason input alone and nothing else is pressed meanwhile; Escape or Cancel keeps
 * the vehicle waiting.
 */
export function RefuseDialog({
  visit,
  onConfirm,
  onCancel,
}: {
  visit: VehicleVisit;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm(reason);
  };
  return (
    <dialog
      ref={dialog}
      className="gate-dialog"
      aria-labelledby="refuse-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <form onSubmit={submit} autoComplete="off">
        <h2 id="refuse-title" className="gate-dialog-title">
          Refuse <span className="plate-text">{visit.plateKey}</span>?
        </h2>
        <p className="gate-dialog-lead">The vehicle is not let in (STOP). The reason is kept with the visit.</p>
        <div className="field">
          <label htmlFor="refuse-reason">Reason</label>
          <input
            id="refuse-reason"
            type="text"
            maxLength={REASON_MAX}
            value={reason}
            autoFocus
            aria-describedby="refuse-reason-hint"
            onChange={(event) => setReason(event.target.value)}
          />
          <span id="refuse-reason-hint" className="field-hint">
            Optional. Without one, the visit says “Refused”.
          </span>
        </div>
        <div className="form-actions">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button-danger">
            Refuse
          </button>
        </div>
      </form>
    </dialog>
  );
}
