import type { BadgeAnswer } from '../../../shared/src/client/badge';
import type { PrintOutcome } from '../../../shared/src/client/printFrame';
import type { KioskDatabase } from '../data/database';
import { observeQuery } from '../data/observe';
import type { PersonVisit } from '../data/types';
import type { Clock } from '../platform/platform';

/** Where a badge goes: the Electron app's printer (silently), or a browser's print dialog. */
export interface BadgePrinter {
  print: (pdf: Uint8Array) => Promise<PrintOutcome>;
}

/**
 * How long after a check-in its badge may still print: the server's answer usually comes within a second;
 * one that comes later (the kiosk was offline) finds the visitor gone from the kiosk, and reception prints
 * the badge from the console instead (docs/running-a-site.md, Badges).
 */
export const BADGE_PRINT_WINDOW_MS = 2 * 60_000;

export interface BadgePrintingOptions {
  db: KioskDatabase;
  printer: BadgePrinter;
  fetchBadge: (visit: { siteId: number; checkinId: number }) => Promise<BadgeAnswer>;
  clock: Pick<Clock, 'setTimer'>;
  windowMs?: number;
  log?: (message: string) => void;
}

/** True once the server has decided the create (its first answer about the visit). */
const decided = (visit: PersonVisit | undefined): visit is PersonVisit & { serverId: number } =>
  visit !== undefined && visit.confirmed !== null && visit.serverId !== undefined;

/**
 * Prints a visitor's badge once the server has admitted the check-in made on this kiosk: only when its
 * answer is IN (never STOP; a PENDING one is printed from the console once approved), and only within the
 * print window. Each check-in is watched once, in memory: a reload forgets it, and the console can reprint.
 */
export function badgePrinting(options: BadgePrintingOptions) {
  const log = options.log ?? ((message: string) => console.warn(message));
  const watching = new Set<() => void>();

  const print = async (visit: PersonVisit & { serverId: number }) => {
    const answer = await options.fetchBadge({ siteId: visit.siteId, checkinId: visit.serverId });
    if (answer.kind === 'pdf') {
      const outcome = await options.printer.print(answer.pdf);
      if (!outcome.printed) log(`Badge of check-in ${visit.serverId} not printed: ${outcome.reason}`);
      return;
    }
    // Badges off at the site is the usual answer there: nothing to say.
    if (answer.kind === 'refused' && answer.problem?.code === 'BADGES_OFF') return;
    log(
      `Badge of check-in ${visit.serverId} not printed: ${answer.kind === 'refused' ? (answer.problem?.detail ?? `HTTP ${answer.status}`) : answer.message}`,
    );
  };

  return {
    /** Watches the visit just checked in here (a predicted STOP is never watched). */
    afterCheckin(visit: PersonVisit): void {
      if (visit.predicted === 'STOP') return;
      let stopped = false;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        unsubscribe();
        cancelTimer();
        watching.delete(stop);
      };
      const unsubscribe = observeQuery(() => options.db.people.get(visit.visitId)).subscribe((current) => {
        if (stopped || !decided(current)) return;
        stop();
        // The server's own answer, not the kiosk's view: a checkout queued meanwhile still leaves a badge
        // to hand over only if the visitor has not left.
        if (current.confirmed?.status === 'IN' && current.status !== 'OUT')
          void print(current).catch((error: unknown) => log(`Badge not printed: ${String(error)}`));
      });
      const cancelTimer = options.clock.setTimer(options.windowMs ?? BADGE_PRINT_WINDOW_MS, stop);
      watching.add(stop);
    },
    /** Stops watching (the kiosk is closing): nothing more prints. */
    stop(): void {
      for (const stop of [...watching]) stop();
    },
  };
}
