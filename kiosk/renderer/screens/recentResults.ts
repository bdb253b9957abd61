import type { VehicleVisit } from '../../src/data/types';

export type GateAction = 'Entry' | 'Exit' | 'Admit' | 'Refuse';

/**
 * What one gate action came to: a visit recorded, or a refusal in words. `decided`: the guard's Admit or Refuse
 * shows on the card, and the kiosk's live list has not shown the visit decided since (see followVisits).
 */
export type GateOutcome =
  | { kind: 'visit'; visit: VehicleVisit; action: GateAction; decided?: true }
  | { kind: 'refused'; plate: string; message: string };

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

/** Whether a card would show `next` differently from `shown`. */
const showsDifferently = (shown: VehicleVisit, next: VehicleVisit) =>
  next.status !== shown.status ||
  next.licensePlate !== shown.licensePlate ||
  (next.stopReason ?? null) !== (shown.stopReason ?? null) ||
  next.entryDecision?.status !== shown.entryDecision?.status ||
  next.entryDecision?.stopReason !== shown.entryDecision?.stopReason;

/**
 * The results with each visit as the kiosk holds it now (`held`: every visit of the site, STOP too), so
 * every card follows the server's decision (PENDING, then IN or STOP) and the guard's. A visit no longer
 * held (it left the site) keeps the last status its card showed. A visit OUT follows nothing: OUT is final,
 * and the list may still hold the copy from before an Exit just recorded. A card showing the guard's own
 * Admit or Refuse does not go back to a PENDING copy: the live list is read again only after the decision is
 * saved, and until then it is the copy from before it (the card would show Admit again for a moment, and a
 * second tap would be refused); once the list has shown the visit decided, the card follows it again. The
 * same array when nothing changed, so React leaves the screen as it is.
 */
export function followVisits(results: GateResult[], held: readonly VehicleVisit[]): GateResult[] {
  let changed = false;
  const followed = results.map((result): GateResult => {
    if (result.kind !== 'visit' || result.visit.status === 'OUT') return result;
    const live = held.find((visit) => visit.visitId === result.visit.visitId);
    if (!live) return result;
    if (result.decided && live.status === 'PENDING') return result;
    if (!result.decided && !showsDifferently(result.visit, live)) return result;
    changed = true;
    return { kind: 'visit', visit: live, action: result.action, id: result.id };
  });
  return changed ? followed : results;
}

/**
 * A guard's Admit or Refuse, recorded: the card of that visit shows it at once, or, when none is shown (he
 * decided from the on-site list), a new card says what was recorded.
 */
export function withDecision(
  results: readonly GateResult[],
  visit: VehicleVisit,
  action: GateAction,
  id: number,
  fresh: boolean,
): GateResult[] {
  const shown = results.some((result) => result.kind === 'visit' && result.visit.visitId === visit.visitId);
  if (!shown) return withResult(results, { kind: 'visit', visit, action, id, decided: true }, fresh);
  return results.map((result) =>
    result.kind === 'visit' && result.visit.visitId === visit.visitId ? { ...result, visit, decided: true } : result,
  );
}
