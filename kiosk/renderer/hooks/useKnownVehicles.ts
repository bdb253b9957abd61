import { useEffect, useMemo, useState } from 'react';
import type { KnownVehicle } from '../../src/data/vehicleDirectory';
import type { Kiosk } from '../../src/kiosk';

/**
 * What the gate's copy of the registered vehicles says of each plate: the vehicle, `null` for a plate it
 * does not hold (unknown), or `undefined` while that plate's answer has not come yet, so a card does not
 * flash "Unknown vehicle" for a registered car. Follows the copy as the change feed updates it.
 */
export type VehicleLookup = (plateKey: string) => KnownVehicle | null | undefined;

export function useKnownVehicles(kiosk: Kiosk, plateKeys: readonly string[]): VehicleLookup {
  // One string for the set of plates, so a new render with the same plates does not start a new query.
  const joined = [...new Set(plateKeys)].sort().join('\n');
  const source = useMemo(() => ({ plates: joined, live: kiosk.knownVehicles(joined.split('\n')) }), [kiosk, joined]);
  const [answer, setAnswer] = useState<{ plates: Set<string>; known: ReadonlyMap<string, KnownVehicle> }>();
  useEffect(
    () => source.live.subscribe((known) => setAnswer({ plates: new Set(source.plates.split('\n')), known })),
    [source],
  );
  return (plateKey) => (answer?.plates.has(plateKey) ? (answer.known.get(plateKey) ?? null) : undefined);
}
