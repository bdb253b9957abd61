/** What every local command shares: its context, its answer, and how a new outbox row starts. */
import type { FormError } from '../../../shared/src/domain';
import type { KioskDatabase } from './database';

/** What a local command answers at once (it never waits for the network). */
export type CommandResult<T> =
  | { ok: true; value: T }
  | { ok: false; code: string; message: string; errors?: FormError[] };

export const refused = (code: string, message: string, errors?: FormError[]): CommandResult<never> => ({
  ok: false,
  code,
  message,
  ...(errors ? { errors } : {}),
});

/** What every local command needs: the database, the device clock and ids, and who to tell. */
export interface CommandContext {
  db: KioskDatabase;
  now(): number;
  randomUUID(): string;
  /** Called after a command queued an action (the sync engine's trigger). */
  onEnqueued?: () => void;
}

/** The fields every new outbox row starts with. */
export function queued(ctx: CommandContext, fields: { visitId: string; siteId: number; occurredAt: string }) {
  return { ...fields, key: ctx.randomUUID(), state: 'QUEUED' as const, attempts: 0, nextAttemptAt: 0, lastError: null };
}
