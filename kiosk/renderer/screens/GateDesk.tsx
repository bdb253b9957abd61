import { useRef } from 'react';
import type { Kiosk } from '../../src/kiosk';
import { useGateActions } from '../hooks/useGateActions';
import { useObservable } from '../hooks/useObservable';
import { GateScreen } from './GateScreen';

/**
 * The gate's Home tab, kept for as long as the kiosk is open. Its actions outlive the screen: scans
 * remembered while an action ran still run when the guard opens another tab, and what they came to
 * (refusals too) is on the screen when he comes back. The screen itself, and with it the hold on focus
 * that keeps the plate input ready for the scanner, is there only while the tab is `shown`.
 */
export function GateDesk({ kiosk, shown }: { kiosk: Kiosk; shown: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const onSite = useObservable(kiosk.vehiclesOnSite);
  // Off the tab the input is gone (the ref is empty), so an action that ends then focuses nothing.
  const actions = useGateActions(kiosk, onSite, () => input.current?.focus());
  return shown ? <GateScreen actions={actions} onSite={onSite ?? []} input={input} /> : null;
}
