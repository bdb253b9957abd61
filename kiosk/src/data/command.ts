/** What every local command shares: its context, its answer, and how a new outbox row starts. */
import type { FormError } from '../../../shared/src/domain';
import type { KioskDatabase } from './database';

/** What a local command answers at once (it never waits for the network). */
export type CommandResult<T> =
  { ok: true; value: T } | { ok: false; code: string; message: string; errors?: FormError[] };

export const refused = (code: string, message: string, errors?: FormError[]): CommandResult<never> => ({
  ok: false,
  code,
  message,
  ...(errors ? { errors } : {}),
});

/** When an action happened: the time it is stamped with, and the device clock's own reading it came from. */
export interface Stamp {
  at: number;
  deviceAt: number;
}

/** What every local command needs: the database, the clock actions are stamped by, ids, and who to tell. */
export interface CommandContext {
  db: KioskDatabase;
  /** The time actions are stamped with: the device clock, corrected by the server's when it is off. */
  now: () => number;
  /** `now()` with the device clock's own reading it came from, in one reading; without it, both are `now()`. */
  stamp?: () => Stamp;
  randomUUID: () => string;
  /** Called after a command queued an action (the sync engine's trigger). */
  onEnqueued?: () => void;
}

/** One reading of the command's clock. */
export function readStamp(ctx: CommandContext): Stamp {
  if (ctx.stamp) return ctx.stamp();
  const at = ctx.now();
  return { at, deviceAt: at };
}

/** The fields every new outbox row starts with. */
export function queued(
  ctx: CommandContext,
  fields: { visitId: string; siteId: number; occurredAt: string; deviceAt: number },
) {
  return { ...fields, key: ctx.randomUUID(), state: 'QUEUED' as const, attempts: 0, nextAttemptAt: 0, lastError: null };
}
