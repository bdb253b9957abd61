import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { type ProblemError, problem } from './problem';
import { PROBLEM_JSON } from './respond';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The problem for a request Node's HTTP parser refused before the app saw it. */
function problemFor(error: NodeJS.ErrnoException): ProblemError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return problem('HEADERS_TOO_LARGE', 'The request headers are larger than this server takes (16 KiB in all).');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return problem('REQUEST_TIMEOUT', 'The request did not arrive in time.');
  return problem('MALFORMED_REQUEST', 'The request is not valid HTTP/1.1.');
}

/**
 * Answers what Node's HTTP parser refuses (a malformed request line, headers over its limit, a request that
 * never finished arriving) as problem+json too, as every other error of the API is; Node's own answer has
 * no body. A connection already gone is simply closed.
 */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's own handler: nothing is written to a connection that is gone, or while an earlier request
    // on it is still being answered (this would land in that answer's place).
    const answering = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering) {
      socket.destroy();
      return;
    }
    const refusal = problemFor(error);
    const requestId = randomUUID();
    const body = JSON.stringify(refusal.toBody('', requestId));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${REASONS[refusal.status] ?? 'Bad Request'}\r\n` +
        `Content-Type: ${PROBLEM_JSON}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
      // Then closed for good: a client that never closes its side must not keep the socket open.
      () => socket.destroy(),
    );
  });
}
