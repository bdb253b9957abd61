import type { Executor } from '../db/query';
import type { RenderedMessage } from './messages/rendered';
import type { ClaimedNotification } from './queue';

export interface ComposeContext {
  db: Executor;
  /** Where hosts reach this server (PUBLIC_URL): the links of a message point there. */
  publicUrl: string;
  now: Date;
}

/** The message to send, or why none will be (a permanent failure, recorded as the attempt's error). */
export type Composition = { message: RenderedMessage } | { refusal: string };

/**
 * Makes the message of one kind of notification at the moment it is sent, from the records as they are
 * then: nothing about the visitor is copied into the notification (an erasure reaches it through the visit).
 */
export type Composer = (notification: ClaimedNotification, context: ComposeContext) => Promise<Composition>;
