import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { VehicleVisit } from '../../src/data/types';
import type { Kiosk } from '../../src/kiosk';
import {
  type GateAction,
  type GateOutcome,
  type GateResult,
  followVisits,
  withDecision,
  withResult,
} from '../screens/recentResults';
import { gateReason } from '../words';

/**
 * How long after a result an empty Enter is taken for the tail of the scan just recorded (a scanner that
 * ends with CR+LF sends two Enters), not for a request that deserves an explanation.
 */
const EMPTY_ENTER_QUIET_MS = 1_000;

/** `text` without `submitted` at its start, keeping what the scanner typed after it; as it is when edited meanwhile. */
function withoutSubmitted(text: string, submitted: string): string {
  return text.startsWith(submitted) ? text.slice(submitted.length).trimStart() : text;
}

/**
 * The input once the action on `submitted` has ended. Recorded: the plate goes. Refused: it stays for one
 * more press (Exit after an Entry refused as already on site), unless more was typed while the action ran;
 * then it goes too, so the next Enter cannot record the two run together as a plate nobody scanned.
 */
export function inputAfter(text: string, submitted: string, recorded: boolean): string {
  return !recorded && text.trim() === submitted.trim() ? text : withoutSubmitted(text, submitted);
}

/** Takes the oldest remembered Enter that has a plate; empty ones before it (a scan's CR+LF, a repeated Enter) are dropped. */
function nextRemembered(enters: string[]): string | undefined {
  for (let next = enters.shift(); next !== undefined; next = enters.shift()) if (next.trim() !== '') return next;
  return undefined;
}

/**
 * The gate's plate input, its actions and their recent results. An action may wait on the server (Exit looks
 * up a plate this kiosk does not know), and a scanner does not wait: what it types meanwhile is kept, and an
 * Enter it sends is remembered and recorded as an Entry when the action ends, so no scan is lost or merged
 * into another. Held above the gate screen (GateDesk), so all this goes on while the guard is on another tab.
 * `held`: every vehicle visit the kiosk holds for the site, which the result cards follow.
 */
export function useGateActions(kiosk: Kiosk, held: readonly VehicleVisit[] | undefined, refocus: () => void) {
  const [plate, showPlate] = useState('');
  // The driver of the vehicle the guard is about to let in: for his own Entry only, never a remembered scan's.
  const [driverName, setDriverName] = useState('');
  const driver = useRef('');
  const [results, setResults] = useState<GateResult[]>([]);
  // Why nothing happened (an Entry pressed with nothing typed): not a result, so it pushes none out.
  const [notice, setNotice] = useState<string>();
  const [busy, showBusy] = useState(false);
  // Refs, not state: an action ends in a later render than it started in and must see what was typed since.
  const text = useRef('');
  const running = useRef(false);
  // The input as it was at each Enter pressed while an action ran, oldest first.
  const enters = useRef<string[]>([]);
  const resultAt = useRef(Number.NEGATIVE_INFINITY);
  const nextId = useRef(0);

  // `results` too: a result may be added after the live list already moved on from the copy it holds.
  useEffect(() => {
    if (held) setResults((current) => followVisits(current, held));
  }, [held, results]);

  const setPlate = (value: string) => {
    text.current = value;
    showPlate(value);
  };
  const setDriver = (value: string) => {
    driver.current = value;
    setDriverName(value);
  };
  const record = (outcome: GateOutcome, fresh: boolean) => {
    const result: GateResult = { ...outcome, id: nextId.current++ };
    setResults((current) => withResult(current, result, fresh));
    resultAt.current = performance.now();
  };

  /** `fresh`: the guard started it at an idle gate, rather than it being an Enter remembered while another ran. */
  const run = async (action: GateAction, submitted: string, fresh: boolean): Promise<void> => {
    running.current = true;
    showBusy(true);
    const typed = submitted.trim();
    const withDriver = action === 'Entry' && fresh;
    const outcome =
      action === 'Entry'
        ? await kiosk.vehicleEntry(typed, withDriver ? { driverName: driver.current } : {})
        : await kiosk.vehicleExit(typed);
    running.current = false;
    showBusy(false);
    // Into the input at once: this runs after an await, outside any event, so React would render it later, and
    // a scanner's next keystroke handled before that render reads the old plate from the input and keeps it: the
    // next scan would be recorded run together with this one ("MM 100LT 707").
    flushSync(() => setPlate(inputAfter(text.current, submitted, outcome.ok)));
    if (withDriver && outcome.ok) setDriver('');
    enters.current = enters.current.map((snapshot) => withoutSubmitted(snapshot, submitted));
    record(
      outcome.ok
        ? { kind: 'visit', visit: outcome.value, action }
        : { kind: 'refused', plate: typed, message: gateReason(outcome) },
      fresh,
    );
    const remembered = nextRemembered(enters.current);
    if (remembered !== undefined) return run('Entry', remembered, false);
    refocus();
  };

  /** Entry or Exit for what the input holds: a button press, or an Enter. */
  const press = (action: GateAction) => {
    if (running.current) return;
    if (text.current.trim() === '') {
      setNotice('Type or scan a license plate first.');
      resultAt.current = performance.now();
      refocus();
      return;
    }
    setNotice(undefined);
    void run(action, text.current, true);
  };

  /** Enter in the plate input records an Entry: now, when the running action ends, or not at all for a scan's tail. */
  const onPlateKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // Handled here rather than by the form: the Entry button is disabled while busy, and a browser then drops the Enter.
    event.preventDefault();
    if (running.current) enters.current.push(text.current);
    else if (text.current.trim() !== '' || performance.now() - resultAt.current >= EMPTY_ENTER_QUIET_MS) press('Entry');
  };

  /** Admit or Refuse a PENDING vehicle (from its card or the on-site list): saved at once, synced after its Entry. */
  const decide = async (visit: VehicleVisit, action: 'Admit' | 'Refuse', reason?: string): Promise<void> => {
    const outcome =
      action === 'Admit' ? await kiosk.vehicleAdmit(visit.visitId) : await kiosk.vehicleRefuse(visit.visitId, reason);
    const fresh = !running.current;
    if (outcome.ok) {
      const id = nextId.current++;
      setResults((current) => withDecision(current, outcome.value, action, id, fresh));
      resultAt.current = performance.now();
    } else {
      record({ kind: 'refused', plate: visit.licensePlate, message: gateReason(outcome) }, fresh);
    }
    refocus();
  };

  return {
    plate,
    setPlate,
    driverName,
    setDriverName: setDriver,
    results,
    notice,
    busy,
    press,
    onPlateKeyDown,
    decide,
  };
}

export type GateActions = ReturnType<typeof useGateActions>;
