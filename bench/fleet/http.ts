import net from 'node:net';
import { EventStreamReader, type StreamMessage } from '../../shared/src/client/eventStream';
import { nextMessage } from '../rawHttp';

/** One answer: status, the response head (for ETag), the body text. */
export interface PoolResponse {
  status: number;
  head: string;
  body: string;
}

interface Pending {
  request: Buffer;
  resolve: (response: PoolResponse) => void;
  reject: (error: Error) => void;
  /** performance.now() when it was handed to a socket: latency is measured from there. */
  sentAt: number;
}

/** One keep-alive socket that carries one request at a time (as rawHttp's RawHttpConnection, with the head kept). */
class PooledSocket {
  private socket: net.Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  current: Pending | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly idle: (connection: PooledSocket) => void,
  ) {}

  send(pending: Pending): void {
    this.current = pending;
    pending.sentAt = performance.now();
    (this.socket ?? this.connect()).write(pending.request);
  }

  private connect(): net.Socket {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      const message = this.current && nextMessage(this.buffered);
      if (!message || !this.current) return;
      this.buffered = this.buffered.subarray(message.end);
      const done = this.current;
      this.current = undefined;
      done.resolve({ status: Number(message.head.slice(9, 12)), head: message.head, body: message.body.toString() });
      this.idle(this);
    });
    const fail = (error: Error) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.buffered = Buffer.alloc(0);
      const done = this.current;
      this.current = undefined;
      if (done) {
        done.reject(error);
        this.idle(this);
      }
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
    this.socket = socket;
    return socket;
  }

  close(): void {
    this.socket?.destroy();
  }
}

/**
 * Requests of many simulated clients over a pool of keep-alive sockets (they are all on this machine; what
 * the server sees is the same requests over fewer connections). Requests wait in a queue for a free socket:
 * `queued` says how long, so a run can tell the generator's own lag from the server's.
 */
export class RequestPool {
  private readonly free: PooledSocket[] = [];
  private readonly all: PooledSocket[] = [];
  private readonly queue: Pending[] = [];
  /** Milliseconds the requests so far waited for a socket, the worst of them. */
  maxQueuedMs = 0;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly maxSockets: number,
  ) {}

  /** Sends the request; resolves with the answer and the milliseconds from write to the whole answer. */
  request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<PoolResponse & { ms: number }> {
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    const payload = body === undefined ? undefined : Buffer.from(body);
    if (payload) head += `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n`;
    const request = payload ? Buffer.concat([Buffer.from(`${head}\r\n`), payload]) : Buffer.from(`${head}\r\n`);
    const queuedAt = performance.now();
    return new Promise<PoolResponse & { ms: number }>((resolve, reject) => {
      const pending: Pending = {
        request,
        sentAt: 0,
        resolve: (response) => resolve({ ...response, ms: performance.now() - pending.sentAt }),
        reject,
      };
      const socket = this.take();
      if (socket) socket.send(pending);
      else this.queue.push(pending);
    }).then((answer) => {
      const waited = performance.now() - queuedAt - answer.ms;
      if (waited > this.maxQueuedMs) this.maxQueuedMs = waited;
      return answer;
    });
  }

  close(): void {
    for (const socket of this.all) socket.close();
  }

  private take(): PooledSocket | undefined {
    const socket = this.free.pop();
    if (socket) return socket;
    if (this.all.length >= this.maxSockets) return undefined;
    const made = new PooledSocket(this.host, this.port, (idle) => this.release(idle));
    this.all.push(made);
    return made;
  }

  private release(socket: PooledSocket): void {
    const next = this.queue.shift();
    if (next) socket.send(next);
    else this.free.push(socket);
  }
}

/** An open event stream of one simulated client. */
export interface RawStream {
  close: () => void;
  reader: EventStreamReader;
}

/**
 * `GET /v1/events` on a socket of its own, read as the server writes it (chunked transfer coding, undone
 * here) through the shared EventStreamReader. `onOpen` gets the status; `onEnd` is called once.
 */
export function openRawStream(input: {
  host: string;
  port: number;
  headers: Record<string, string>;
  onOpen: (status: number) => void;
  onMessage: (message: StreamMessage) => void;
  onEnd: () => void;
}): RawStream {
  const reader = new EventStreamReader();
  const socket = net.connect({ host: input.host, port: input.port, noDelay: true });
  let head = '';
  let inBody = false;
  let pending: Buffer = Buffer.alloc(0);
  let chunkLeft = -1;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    socket.destroy();
    input.onEnd();
  };
  let request = `GET /v1/events HTTP/1.1\r\nHost: ${input.host}:${input.port}\r\nAccept: text/event-stream\r\n`;
  for (const [name, value] of Object.entries(input.headers)) request += `${name}: ${value}\r\n`;
  socket.write(`${request}\r\n`);
  const body = (data: Buffer) => {
    pending = pending.length === 0 ? data : Buffer.concat([pending, data]);
    for (;;) {
      if (chunkLeft < 0) {
        const lineEnd = pending.indexOf('\r\n');
        if (lineEnd < 0) return;
        chunkLeft = Number.parseInt(pending.subarray(0, lineEnd).toString('latin1'), 16);
        pending = pending.subarray(lineEnd + 2);
        if (chunkLeft === 0) return end();
      }
      if (pending.length < chunkLeft + 2) return;
      for (const message of reader.push(pending.subarray(0, chunkLeft).toString())) input.onMessage(message);
      pending = pending.subarray(chunkLeft + 2);
      chunkLeft = -1;
    }
  };
  socket.on('data', (data: Buffer) => {
    if (inBody) return body(data);
    head += data.toString('latin1');
    const at = head.indexOf('\r\n\r\n');
    if (at < 0) return;
    const status = Number(head.slice(9, 12));
    input.onOpen(status);
    if (status !== 200) return end();
    inBody = true;
    const rest = Buffer.from(head.slice(at + 4), 'latin1');
    head = '';
    if (rest.length > 0) body(rest);
  });
  socket.on('error', end);
  socket.on('close', end);
  return { close: end, reader };
}
