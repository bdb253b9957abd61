import { once } from 'node:events';
import net from 'node:net';

/** One answer: its status and body text. */
export interface RawResponse {
  status: number;
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One HTTP/1.1 message read from the front of a buffer: its head (start line and headers), its body, where it ends. */
export interface RawMessage {
  head: string;
  body: Buffer;
  end: number;
}

/**
 * The first whole message in `buffered`, or undefined while it is incomplete. The body is framed by
 * Content-Length or chunked encoding; with neither there is none (a request without a body, or a 204/304).
 */
export function nextMessage(buffered: Buffer): RawMessage | undefined {
  const headerEnd = buffered.indexOf(HEADER_END);
  if (headerEnd < 0) return undefined;
  const head = buffered.subarray(0, headerEnd).toString('latin1');
  const start = headerEnd + HEADER_END.length;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = start + Number(length[1]);
    return buffered.length < end ? undefined : { head, body: buffered.subarray(start, end), end };
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return { head, body: Buffer.alloc(0), end: start };
  const chunks: Buffer[] = [];
  for (let at = start; ;) {
    const lineEnd = buffered.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(buffered.subarray(at, lineEnd).toString('latin1'), 16);
    if (buffered.length < lineEnd + 2 + size + 2) return undefined;
    if (size === 0) return { head, body: Buffer.concat(chunks), end: lineEnd + 4 };
    chunks.push(buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * One keep-alive HTTP/1.1 connection that sends a request and waits for its answer, nothing more: the
 * request is one preformatted buffer and the answer is read by Content-Length (or chunked), the way
 * autocannon and wrk do it. Node's http client costs about as much CPU per request as the server's own
 * HTTP handling, and a load generator on the same two cores should take as little of them as it can.
 */
export class RawHttpConnection {
  private socket: net.Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: { resolve: (response: RawResponse) => void; reject: (error: Error) => void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private connect(): net.Socket {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.tryComplete();
    });
    const fail = (error: Error) => {
      this.socket = undefined;
      this.buffered = Buffer.alloc(0);
      const pending = this.pending;
      this.pending = undefined;
      pending?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
    this.socket = socket;
    return socket;
  }

  /** Sends `method path` with `headers` and `body`; resolves with the answer. One request at a time. */
  request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<RawResponse> {
    if (this.pending) return Promise.reject(new Error('one request at a time on a connection'));
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    const payload = body === undefined ? undefined : Buffer.from(body);
    if (payload) head += `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n`;
    const message = payload ? Buffer.concat([Buffer.from(`${head}\r\n`), payload]) : Buffer.from(`${head}\r\n`);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      (this.socket ?? this.connect()).write(message);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  /** Resolves the pending request once its whole answer is buffered. */
  private tryComplete(): void {
    if (!this.pending) return;
    const message = nextMessage(this.buffered);
    if (!message) return;
    this.buffered = this.buffered.subarray(message.end);
    const pending = this.pending;
    this.pending = undefined;
    pending.resolve({ status: Number(message.head.slice(9, 12)), body: message.body.toString('utf8') });
  }
}

const OK = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');

/**
 * A keep-alive HTTP/1.1 server on 127.0.0.1 that answers every request 200 with no body, after handing it
 * to `onRequest`: the receiving side of RawHttpConnection, for benchmarks whose receivers stand for other
 * machines (webhook subscribers). Node's http server costs several times as much per request. Answers to
 * requests that arrived together (pipelined) go out in one write.
 */
export async function listenRaw(onRequest: (message: RawMessage) => void): Promise<net.Server> {
  const server = net.createServer({ noDelay: true }, (socket) => {
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      let answers = 0;
      for (let message = nextMessage(buffered); message; message = nextMessage(buffered)) {
        buffered = buffered.subarray(message.end);
        onRequest(message);
        answers += 1;
      }
      if (answers === 1) socket.write(OK);
      else if (answers > 1) socket.write(Buffer.concat(Array.from({ length: answers }, () => OK)));
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}
