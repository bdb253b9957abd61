import net from 'node:net';

/** One answer: its status and body text. */
export interface RawResponse {
  status: number;
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

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

  constructor(private readonly host: string, private readonly port: number) {}

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
  request(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<RawResponse> {
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
    const headerEnd = this.buffered.indexOf(HEADER_END);
    if (headerEnd < 0 || !this.pending) return;
    const head = this.buffered.subarray(0, headerEnd).toString('latin1');
    const status = Number(head.slice(9, 12));
    const start = headerEnd + HEADER_END.length;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let body: Buffer;
    let end: number;
    if (length) {
      end = start + Number(length[1]);
      if (this.buffered.length < end) return;
      body = this.buffered.subarray(start, end);
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const chunks: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = this.buffered.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = Number.parseInt(this.buffered.subarray(at, lineEnd).toString('latin1'), 16);
        if (this.buffered.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          end = lineEnd + 4;
          break;
        }
        chunks.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(chunks);
    } else {
      // No body (204, 304): the answer ends with its headers.
      body = Buffer.alloc(0);
      end = start;
    }
    this.buffered = this.buffered.subarray(end);
    const pending = this.pending;
    this.pending = undefined;
    pending.resolve({ status, body: body.toString('utf8') });
  }
}
