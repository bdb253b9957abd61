import type { StreamMessage } from '../../shared/src/client/eventStream';
import { AlertEvent, CheckinEvent } from '../../shared/src/schemas/events';

export type VisitKind = 'person' | 'vehicle';

/** The statuses the live views hold (On site now, Approvals): as the kiosk's Roll call, and vehicles at the gate. */
const SHOWN: Record<VisitKind, ReadonlySet<string>> = {
  person: new Set(['IN', 'ON_BREAK', 'PENDING']),
  vehicle: new Set(['IN', 'PENDING']),
};

export const isShown = (kind: VisitKind, status: string): boolean => SHOWN[kind].has(status);

/** What the console does about one event of the stream (docs/event-stream-clients.md, Each change). */
export type LiveStep =
  | { do: 'nothing' }
  | { do: 'readAll' }
  | { do: 'remove'; kind: VisitKind; checkinId: number }
  | { do: 'readVisit'; kind: VisitKind; siteId: number; checkinId: number }
  | { do: 'readAlerts' };

const NOTHING: LiveStep = { do: 'nothing' };

const json = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
};

/**
 * One request per event, never a list: a visit the copy already holds in the event's status (the echo of
 * the user's own write) costs nothing, nor does a visit leaving the views; a new or changed one is read
 * alone. `held` answers the status the copy holds for a visit, if it holds it. An alert the copy holds as
 * acknowledged (the echo of an acknowledgement) costs nothing either: acknowledged, it stays so.
 */
export function stepFor(
  message: StreamMessage,
  held: (kind: VisitKind, checkinId: number) => string | undefined,
  acknowledged: (kind: string, checkinId: number) => boolean = () => false,
): LiveStep {
  if (message.event === 'reset') return { do: 'readAll' };
  if (message.event === 'alert') {
    const alert = AlertEvent.safeParse(json(message.data));
    if (!alert.success) return NOTHING;
    const { kind, checkinId } = alert.data;
    return checkinId !== undefined && acknowledged(kind, checkinId) ? NOTHING : { do: 'readAlerts' };
  }
  if (message.event !== 'checkin') return NOTHING;
  const parsed = CheckinEvent.safeParse(json(message.data));
  if (!parsed.success) return NOTHING;
  const { kind, siteId, checkinId, status, anonymized } = parsed.data;
  const holds = held(kind, checkinId);
  if (!isShown(kind, status)) return holds === undefined ? NOTHING : { do: 'remove', kind, checkinId };
  if (holds === status && anonymized !== true) return NOTHING;
  return { do: 'readVisit', kind, siteId, checkinId };
}
