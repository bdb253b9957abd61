import { z } from 'zod';
import { Id, IntId } from './common';

/**
 * The event stream (`GET /v1/events`, docs/api.md, Event stream): what each event's `data` holds. Ids and
 * states only, never a name: a client that wants more reads the resource. Every event names its `siteId`
 * (null when it is about the whole account). A client ignores event types and fields it does not know.
 */

/** A person or vehicle visit was created or changed status (`status` is the new one). */
export const CheckinEvent = z.object({
  kind: z.enum(['person', 'vehicle']),
  siteId: IntId,
  checkinId: Id,
  status: z.string().meta({ description: 'The visit’s status after the change (a newer server may add values).' }),
  anonymized: z
    .literal(true)
    .optional()
    .meta({ description: 'The visit’s person data was erased: read it again even if its status is the one you hold.' }),
});

/** The site's alerts changed: one was raised (any kind: a STOP, an older form, a kiosk refusal, a pass) or acknowledged. */
export const AlertEvent = z.object({
  kind: z.string().meta({
    description:
      'The alert’s kind as `GET /v1/alerts` names it: `person`, `vehicle`, `form`, `kiosk` or `pass` (a newer server may add kinds).',
  }),
  siteId: IntId,
  checkinId: Id.optional().meta({
    description: 'The alert’s number as `GET /v1/alerts` names it: the check-in’s, or for `kiosk` the alert’s own.',
  }),
});

/** The site's check-in form was replaced: `version` is its new one. */
export const ConfigEvent = z.object({ siteId: IntId, version: z.number().int().min(1) });

/** The account's registered vehicles or vehicle labels changed: `cursor` is the vehicle feed's position after it. */
export const VehiclesEvent = z.object({ siteId: z.null(), cursor: z.string() });

/** The hosts of a site (or of the account, `siteId` null) changed. */
export const HostsEvent = z.object({ siteId: IntId.nullable() });

/** An invitation of the site was created or changed status. */
export const InvitationEvent = z.object({ siteId: IntId, invitationId: Id, status: z.string() });

/** The first event of a connection that resumed: nothing since its `Last-Event-ID` was lost. */
export const ReadyEvent = z.object({ resumed: z.literal(true) });

/**
 * Read what you show afresh, then apply the events that follow: the first event of a connection that did not
 * resume (`start`: none asked; `expired`: the id is older than the window, or unknown; `behind`: too much
 * happened since it for a replay).
 */
export const ResetEvent = z.object({ reason: z.enum(['start', 'expired', 'behind']) });

/** The changes a principal may follow, by `event:` name (docs/api.md, Event stream). */
export const changeEventData = {
  checkin: CheckinEvent,
  alert: AlertEvent,
  config: ConfigEvent,
  vehicles: VehiclesEvent,
  hosts: HostsEvent,
  invitation: InvitationEvent,
} as const;

export type ChangeEventType = keyof typeof changeEventData;
export const changeEventTypes = Object.keys(changeEventData) as ChangeEventType[];

/** Every `event:` name the stream sends. */
export const streamEventData = { ...changeEventData, ready: ReadyEvent, reset: ResetEvent } as const;
export type StreamEventType = keyof typeof streamEventData;

export type CheckinEvent = z.infer<typeof CheckinEvent>;
export type ResetEvent = z.infer<typeof ResetEvent>;

/** `GET /v1/events`: where to resume, for a client that cannot send the `Last-Event-ID` header. */
export const EventStreamQuery = z.strictObject({
  lastEventId: z
    .string()
    .max(64)
    .optional()
    .meta({ description: 'The `id` of the last event received; the `Last-Event-ID` header wins when both come.' }),
});

/** The body of a 200: `text/event-stream`. */
export const EventStreamText = z.string().meta({
  description:
    'Server-sent events (text/event-stream): `retry:`, then `ready` or `reset`, then one event per change the caller may see, and a comment line (`: keep-alive`) every 25 s.',
});
