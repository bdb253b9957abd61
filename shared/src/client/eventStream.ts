/** One event of a `text/event-stream` as the HTML standard's EventSource dispatches it. */
export interface StreamMessage {
  /** The `event:` name (`message` when none came). */
  event: string;
  data: string;
  /** The last event id after this event: what to send as `Last-Event-ID` when reconnecting. */
  lastEventId: string;
}

/**
 * Reads a `text/event-stream` as it arrives, chunk by chunk, by the rules of the HTML standard's
 * "interpret an event stream" (server-sent events): for clients that cannot use EventSource, such as a
 * kiosk that must send `Authorization: Bearer …` (EventSource sends no headers of its own) and reads
 * `GET /v1/events` with fetch. An id-only block (`id:` then a blank line) moves `lastEventId` on without
 * an event, as EventSource does.
 */
export class EventStreamReader {
  /** What to send as `Last-Event-ID` on reconnecting. */
  lastEventId = '';
  /** The server's `retry:` advice in milliseconds, once it gave one. */
  retryMs: number | undefined;
  /** Comment lines seen (`: keep-alive`): proof the connection is alive when no event comes. */
  comments = 0;
  private pending = '';
  private idBuffer = '';
  private eventType = '';
  private data: string[] = [];

  /** Feeds the next chunk of text; answers the events it completed, in order. */
  push(chunk: string): StreamMessage[] {
    const text = this.pending + chunk;
    const messages: StreamMessage[] = [];
    let start = 0;
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index];
      if (char !== '\n' && char !== '\r') continue;
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (char === '\r' && index === text.length - 1) break;
      this.line(text.slice(start, index), messages);
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      start = index + 1;
    }
    this.pending = text.slice(start);
    return messages;
  }

  private line(line: string, messages: StreamMessage[]): void {
    if (line === '') {
      this.dispatch(messages);
      return;
    }
    if (line.startsWith(':')) {
      this.comments += 1;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventType = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\u0000')) this.idBuffer = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(messages: StreamMessage[]): void {
    this.lastEventId = this.idBuffer;
    if (this.data.length > 0) {
      messages.push({ event: this.eventType || 'message', data: this.data.join('\n'), lastEventId: this.lastEventId });
    }
    this.data = [];
    this.eventType = '';
  }
}
