import { EventStreamReader, type StreamMessage } from './eventStream';

/** Where a follower is: connecting (or waiting to), open (its first event came), or stopped for good. */
export type FollowState = 'connecting' | 'open' | 'stopped';

export interface FollowOptions {
  /** The stream's URL (`…/v1/events`). */
  url: string;
  /** Sent on every connection: `Authorization: Bearer …` for a kiosk; none for a console (its cookie goes by itself). */
  headers?: Record<string, string>;
  /** Every event, in order: `reset` and `ready` first on each connection, then the changes. */
  onEvent: (message: StreamMessage) => void;
  onState?: (state: FollowState) => void;
  /** A connection refused with this status (401: the token was revoked, the session ended) stops following. */
  stopOn?: readonly number[];
  /** With nothing at all received for this long (the comment comes every 25 s), the connection is taken for dead. */
  silenceMs?: number;
  fetch?: typeof fetch;
}

export interface Follower {
  /** The id to resume from (what goes in Last-Event-ID on the next connection). */
  readonly lastEventId: string;
  stop: () => void;
}

const DEFAULT_RETRY_MS = 3_000;
const MAX_RETRY_MS = 60_000;

/**
 * Follows `GET /v1/events` with fetch, as EventSource would but with headers of its own (a kiosk's bearer
 * token), and with a watchdog EventSource lacks: a connection silent for `silenceMs` (no event, no comment)
 * is dropped and made again. Reconnects after the server's `retry:` (growing, with jitter, while connections
 * fail), each time with the last id in `Last-Event-ID`, so nothing is lost within the server's window
 * (docs/event-stream-clients.md).
 */
export function followEvents(options: FollowOptions): Follower {
  const doFetch = options.fetch ?? fetch;
  const silenceMs = options.silenceMs ?? 60_000;
  const stopOn = new Set(options.stopOn ?? [401]);
  let lastEventId = '';
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  let stopped = false;
  let current: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const state = (next: FollowState) => options.onState?.(next);

  const connect = async () => {
    if (stopped) return;
    state('connecting');
    const abort = new AbortController();
    current = abort;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => abort.abort(), silenceMs);
    };
    let opened = false;
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream', ...options.headers };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      heard();
      const response = await doFetch(options.url, { headers, signal: abort.signal, cache: 'no-store' });
      if (stopOn.has(response.status)) {
        stop();
        return;
      }
      if (response.status !== 200 || !response.body) throw new Error(`status ${response.status}`);
      const reader = new EventStreamReader();
      const body = response.body.getReader();
      const decoder = new TextDecoder();
      for (let read = await body.read(); !read.done; read = await body.read()) {
        heard();
        for (const message of reader.push(decoder.decode(read.value, { stream: true }))) {
          if (!opened) {
            opened = true;
            failures = 0;
            state('open');
          }
          lastEventId = reader.lastEventId;
          options.onEvent(message);
        }
        lastEventId = reader.lastEventId || lastEventId;
        retryMs = reader.retryMs ?? retryMs;
      }
    } catch {
      // Refused, cut, or silent too long: reconnect below.
    } finally {
      clearTimeout(silence);
    }
    if (stopped) return;
    failures = opened ? 0 : failures + 1;
    const wait = Math.min(MAX_RETRY_MS, retryMs * 2 ** Math.min(failures, 5)) * (0.5 + Math.random());
    state('connecting');
    timer = setTimeout(() => void connect(), wait);
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    current?.abort();
    state('stopped');
  };

  void connect();
  return {
    get lastEventId() {
      return lastEventId;
    },
    stop,
  };
}
