import { useEffect, useRef, useState } from 'react';
import type { Kiosk } from '../../src/kiosk';
import { useGateActions } from '../hooks/useGateActions';
import { useKnownVehicles } from '../hooks/useKnownVehicles';
import { useObservable } from '../hooks/useObservable';
import type { ChosenPlate } from './GatePlateHistory';
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
  const held = useObservable(kiosk.siteVehicles);
  const online = useObservable(kiosk.status)?.online;
  // The header names the site: asked of the server when the gate opens and whenever it is back online.
  useEffect(() => {
    if (online !== false) void kiosk.refreshSite();
  }, [kiosk, online]);
  const [chosen, setChosen] = useState<ChosenPlate>();
  // Off the tab the input is gone (the ref is empty), so an action that ends then focuses nothing.
  const actions = useGateActions(kiosk, held, () => input.current?.focus());
  const vehicles = useKnownVehicles(
    kiosk,
    actions.results.flatMap((result) => (result.kind === 'visit' ? [result.visit.plateKey] : [])),
  );

  const choose = (plate: string | undefined) => {
    if (plate === undefined) return setChosen(undefined);
    setChosen({ plate, history: undefined });
    void kiosk.plateHistory(plate).then((history) =>
      // Only if the guard has not chosen another plate (or closed it) meanwhile.
      setChosen((current) =>
        current?.plate === plate && current.history === undefined ? { plate, history } : current,
      ),
    );
  };

  return shown ? (
    <GateScreen
      actions={actions}
      onSite={onSite ?? []}
      input={input}
      chosen={chosen}
      onChoose={choose}
      vehicles={vehicles}
    />
  ) : null;
}
