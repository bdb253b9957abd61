import type { KioskDatabase } from '../data/database';
import { type Ack, recordAcks } from '../data/outcomes';

/**
 * Writes acknowledgements behind the sends instead of between them: while one transaction runs, the
 * next acknowledgements gather and go in the next one, so a busy drain writes in batches and a quiet one
 * at once. Safe because an acknowledgement lost to a crash only means the action is sent again with its
 * key, and the server replays its answer. A push pass ends with `endPass()`.
 */
export interface AckWriter {
  add: (ack: Ack) => void;
  /**
   * True while the action's acknowledgement is not written yet, or could not be written in this pass: it
   * must not be sent again meanwhile (a write that keeps failing would otherwise resend it in a loop).
   */
  has: (seq: number) => boolean;
  /** True once a write failed in this pass (the device's storage is full or broken): the pass should send nothing more. */
  failed: () => boolean;
  flushed: () => Promise<void>;
  /**
   * Waits for the writes, then forgets those that failed: their actions are still queued with their keys,
   * so a later pass sends them again and the server replays its answer. Answers whether a write failed.
   */
  endPass: () => Promise<'written' | 'failed'>;
}

export function ackWriter(db: KioskDatabase, now: () => number, onError: (error: unknown) => void): AckWriter {
  let waiting: Ack[] = [];
  const unwritten = new Set<number>();
  let writeFailed = false;
  let writing: Promise<void> | undefined;
  const writeAll = async () => {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await recordAcks(db, batch, now());
        for (const ack of batch) unwritten.delete(ack.action.seq);
      } catch (error) {
        // The batch stays in `unwritten` until the pass ends: not sent again in this pass.
        writeFailed = true;
        onError(error);
      }
    }
  };
  const flushed = async () => {
    while (writing) await writing;
  };
  return {
    add(ack) {
      waiting.push(ack);
      unwritten.add(ack.action.seq);
      writing ??= writeAll().finally(() => (writing = undefined));
    },
    has: (seq) => unwritten.has(seq),
    failed: () => writeFailed,
    flushed,
    async endPass() {
      try {
        await flushed();
        return writeFailed ? 'failed' : 'written';
      } finally {
        // Nothing is being written now: what is left unwritten failed, and the next pass may send it again.
        writeFailed = false;
        unwritten.clear();
      }
    },
  };
}
