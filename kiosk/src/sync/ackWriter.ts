import type { KioskDatabase } from '../data/database';
import { type Ack, recordAcks } from '../data/outcomes';

/**
 * Writes acknowledgements behind the sends instead of between them: while one transaction runs, the
 * next acknowledgements gather and go in the next one, so a busy drain writes in batches and a quiet one
 * at once. Safe because an acknowledgement lost to a crash only means the action is sent again with its
 * key, and the server replays its answer. A push pass waits for `flushed()` before it ends.
 */
export interface AckWriter {
  add(ack: Ack): void;
  /** True while the action's acknowledgement is not written yet (it must not be sent again meanwhile). */
  has(seq: number): boolean;
  flushed(): Promise<void>;
}

export function ackWriter(db: KioskDatabase, now: () => number, onError: (error: unknown) => void): AckWriter {
  let waiting: Ack[] = [];
  const unwritten = new Set<number>();
  let writing: Promise<void> | undefined;
  const writeAll = async () => {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await recordAcks(db, batch, now());
      } catch (error) {
        onError(error);
      } finally {
        for (const ack of batch) unwritten.delete(ack.action.seq);
      }
    }
  };
  return {
    add(ack) {
      waiting.push(ack);
      unwritten.add(ack.action.seq);
      writing ??= writeAll().finally(() => (writing = undefined));
    },
    has: (seq) => unwritten.has(seq),
    async flushed() {
      while (writing) await writing;
    },
  };
}
