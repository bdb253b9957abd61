import type { VehicleVisit } from '../../src/data/types';

export type GateAction = 'Entry' | 'Exit';

/** What one gate action came to: a visit recorded, or a refusal in words. */
export type GateOutcome = { kind: 'visit'; visit: VehicleVisit; action: GateAction } | { kind: 'refused'; plate: string; message: string };

/** An outcome on screen; `id` keeps each card apart (two results may name the same plate). */
export type GateResult = GateOutcome & { id: number };

/** How many results stay once the guard starts an action himself: the newest, large, and a few before it. */
export const RECENT_RESULTS = 4;

/**
 * The results, newest first, with `result` added. An action the guard started himself at an idle gate
 * (`fresh`) keeps only the last few before it: he was at the gate to start it, so he has had them in front
 * of him. The scans remembered while an action ran drop nothing, so a refusal among them is not pushed out
 * by the scans after it, nor while the guard is on another tab, before he is back at the gate.
 */
export function withResult(results: readonly GateResult[], result: GateResult, fresh: boolean): GateResult[] {
  return [result, ...(fresh ? results.slice(0, RECENT_RESULTS - 1) : results)];
}

/**
 * The results with each visit as the on-site list has it now, so every card follows the server's decision
 * (PENDING, then IN or STOP). A visit that left the list (it left the site) keeps the last status its card
 * showed. A visit OUT follows nothing: OUT is final, and the list may still hold the copy from before an Exit
 * just recorded. The same array when nothing changed, so React leaves the screen as it is.
 */
export function followVisits(results: GateResult[], onSite: readonly VehicleVisit[]): GateResult[] {
  let changed = false;
  const followed = results.map((result): GateResult => {
    if (result.kind !== 'visit' || result.visit.status === 'OUT') return result;
    const live = onSite.find((visit) => visit.visitId === result.visit.visitId);
    if (!live || (live.status === result.visit.status && live.licensePlate === result.visit.licensePlate)) return result;
    changed = true;
    return { ...result, visit: live };
  });
  return changed ? followed : results;
}
