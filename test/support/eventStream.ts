import { EventStreamReader, type StreamMessage } from '../../shared/src/client/eventStream';

/** A stream event with its data parsed, and when it arrived (ms, performance.now()). */
export interface ReceivedEvent {
  event: string;
  data: Record<string, unknown>;
  lastEventId: string;
  at: number;
}

export interface OpenStream {
  status: number;
  headers: Headers;
  /** Every event so far, in order. */
  events: ReceivedEvent[];
  reader: EventStreamReader;
  /** Everything received, as text. */
  text: () => string;
  /** Resolves with the first event (from `from` on) that satisfies `match`; rejects after `timeoutMs`. */
  waitFor: (
    match: (event: ReceivedEvent) => boolean,
    options?: { timeoutMs?: number; from?: number },
  ) => Promise<ReceivedEvent>;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  close: () => void;
}

/**
 * Opens `GET /v1/events` as a kiosk or a console would, with fetch (headers: a bearer token, a cookie,
 * Last-Event-ID), and reads it as it arrives with the shared EventStreamReader.
 */
export async function openEventStream(
  baseUrl: string,
  options: { token?: string; cookie?: string; lastEventId?: string; query?: string } = {},
): Promise<OpenStream> {
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/v1/events${options.query ?? ''}`, { headers, signal: abort.signal });
  const reader = new EventStreamReader();
  const events: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  let text = '';
  const received = (message: StreamMessage) => {
    events.push({
      event: message.event,
      data: JSON.parse(message.data) as Record<string, unknown>,
      lastEventId: message.lastEventId,
      at: performance.now(),
    });
  };
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    const body = response.body.getReader();
    try {
      for (let read = await body.read(); !read.done; read = await body.read()) {
        const piece = decoder.decode(read.value, { stream: true });
        text += piece;
        for (const message of reader.push(piece)) received(message);
        for (const wake of waiters) wake();
      }
    } catch {
      // Aborted by close(), or the connection cut: the stream has ended either way.
    } finally {
      for (const wake of waiters) wake();
    }
  })();
  let done = false;
  void ended.then(() => (done = true));
  const waitFor: OpenStream['waitFor'] = (match, { timeoutMs = 5_000, from = 0 } = {}) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = events.slice(from).find(match);
        if (found) {
          finish();
          resolve(found);
        } else if (done) {
          finish();
          reject(new Error(`the stream ended without the event; got ${JSON.stringify(events)}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return {
    status: response.status,
    headers: response.headers,
    events,
    reader,
    text: () => text,
    waitFor,
    ended,
    close: () => abort.abort(),
  };
}

/** The `checkin` event of one visit in one status. */
export const checkinEvent = (checkinId: number, status?: string) => (event: ReceivedEvent) =>
  event.event === 'checkin' &&
  event.data.checkinId === checkinId &&
  (status === undefined || event.data.status === status);
