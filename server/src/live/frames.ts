import type { Scope } from '../../../shared/src/schemas/admin';
import type { ChangeEventType } from '../../../shared/src/schemas/events';
import { encodeVehicleCursor } from '../queries/vehicleChanges';
import type { LiveEventRow } from '../queries/liveEvents';
import { type Position, formatPosition } from './position';

/**
 * Who may see an event of each type: a principal with any of these scopes (and the event's site, or any
 * site of its account when the event names none). Any of read or write: a kiosk that checks visitors in at
 * a site may learn which visits there changed (ids and states, never names). A type missing here is sent
 * to nobody: a feature that publishes a new type adds its line.
 */
// A kiosk's token holds its mode's scope (§27): the visitor kiosk follows its site's people, form and hosts,
// the gate its vehicles.
const readers: Record<ChangeEventType, (data: Record<string, unknown>) => readonly Scope[]> = {
  checkin: (data) =>
    data.kind === 'vehicle'
      ? ['vehicles:read', 'vehicles:write', 'kiosk:gate']
      : ['checkins:read', 'checkins:write', 'kiosk:visitor'],
  alert: () => ['alerts:manage'],
  // The kiosk's form, and the console's form editor.
  config: () => ['checkins:read', 'checkins:write', 'kiosk:visitor', 'sites:configure'],
  vehicles: () => ['vehicles:read', 'kiosk:gate'],
  // The kiosk's form offers the site's hosts; the console's Hosts page lists them.
  hosts: () => ['checkins:read', 'checkins:write', 'kiosk:visitor', 'hosts:manage'],
  // The console's Expected page: whoever may read invitations.
  invitation: () => ['invitations:read', 'invitations:write'],
};

const isKnown = (type: string): type is ChangeEventType => Object.hasOwn(readers, type);

/** An event as the stream sends it, made once however many streams send it. */
export interface StreamEvent {
  position: Position;
  accountId: number;
  siteId: number | null;
  /** Any of these lets a principal see it. */
  scopes: readonly Scope[];
  /** The whole `id:` / `event:` / `data:` block, with its blank line. */
  frame: string;
}

/** What the stored data says on the wire: the vehicle feed's number becomes its cursor. */
function wireData(row: LiveEventRow): Record<string, unknown> {
  if (row.type !== 'vehicles') return row.data;
  const seq = typeof row.data.changeSeq === 'number' ? row.data.changeSeq : 0;
  return { siteId: null, cursor: encodeVehicleCursor(seq, row.accountId) };
}

/** The event to stream, or undefined for a type this server does not send. */
export function streamEventOf(row: LiveEventRow): StreamEvent | undefined {
  if (!isKnown(row.type)) return undefined;
  return {
    position: row.position,
    accountId: row.accountId,
    siteId: row.siteId,
    scopes: readers[row.type](row.data),
    frame: `id: ${formatPosition(row.position)}\nevent: ${row.type}\ndata: ${JSON.stringify(wireData(row))}\n\n`,
  };
}

/** A stream's own event (`ready`, `reset`); with `at`, it also sets the client's Last-Event-ID. */
export const controlFrame = (type: string, data: unknown, at?: Position): string =>
  `${at ? `id: ${formatPosition(at)}\n` : ''}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/** The comment that keeps proxies from closing an idle stream; with `at`, it moves the client's Last-Event-ID on. */
export const keepAliveFrame = (at?: Position): string => `: keep-alive\n${at ? `id: ${formatPosition(at)}\n` : ''}\n`;
