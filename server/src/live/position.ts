/**
 * Where an event stands in the order every instance streams them in: its transaction's id, then its number
 * within it (migration 0030). Sent to clients as the event's `id`, `<tx>-<seq>`, which they give back in
 * `Last-Event-ID`; opaque to them.
 */
export interface Position {
  tx: number;
  seq: number;
}

export const ORIGIN: Position = { tx: 0, seq: 0 };

export const formatPosition = (at: Position): string => `${at.tx}-${at.seq}`;

/** The position an id names, or undefined for anything this server never sent. */
export function parsePosition(text: string | undefined): Position | undefined {
  const match = text === undefined ? null : /^(\d{1,15})-(\d{1,15})$/.exec(text.trim());
  if (!match) return undefined;
  return { tx: Number(match[1]), seq: Number(match[2]) };
}

/** Whether `a` comes after `b`. */
export const isAfter = (a: Position, b: Position): boolean => a.tx > b.tx || (a.tx === b.tx && a.seq > b.seq);
