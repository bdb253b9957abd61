import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { Logger } from '../logger';
import type { Reply } from '../reply';

/** Resolves once `chunk` is handed to the socket, so whoever made it may reuse its memory. */
const written = (res: ServerResponse, chunk: string | Buffer) =>
  new Promise<void>((resolve, reject) => res.write(chunk, (error) => (error ? reject(error) : resolve())));

/**
 * A streamed body (a CSV export), written as it is made: each chunk is out before the next is asked for, so
 * the producer (an export thread) waits on the socket. The client leaving ends the producer. A failure once
 * the headers are out cannot become an error response: it is logged and the connection is cut, so the client
 * sees an incomplete download, not a hang.
 */
export function sendStream(ctx: Context, reply: Reply, stream: NonNullable<Reply['stream']>, log: Logger): void {
  for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
  ctx.status = reply.status;
  ctx.type = stream.contentType;
  // Koa writes nothing more: the body is written below (its documented escape hatch).
  ctx.respond = false;
  const { res } = ctx;
  const chunks = stream.chunks[Symbol.asyncIterator]();
  let left = false;
  const onClose = () => {
    if (res.writableFinished) return;
    left = true;
    void chunks.return?.();
  };
  // A client that left while the export waited for its turn is gone before the first byte.
  if (res.destroyed) onClose();
  else res.once('close', onClose);
  // Once under way, no progress (no chunk made, or none taken by the client) for stallMs: ended, so it frees
  // what it holds (an export's thread and slot). Before its first chunk, the export's own queue limit rules.
  let watchdog: NodeJS.Timeout | undefined;
  const progressed = () => {
    if (stream.stallMs === undefined) return;
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      if (res.writableFinished) return;
      log.warn('streamed response made no progress; connection closed', {
        route: String(ctx.state.route),
        requestId: String(ctx.state.requestId),
        stallMs: stream.stallMs,
      });
      left = true;
      res.destroy();
      void chunks.return?.();
    }, stream.stallMs);
  };
  void (async () => {
    try {
      for (let next = await chunks.next(); !next.done && !left; next = await chunks.next()) {
        progressed();
        // A write that fails is the client gone (reset, or closed while the chunk was out), maybe before the
        // socket's 'close' says so: not the server's failure, so not logged as one.
        if (
          !(await written(res, next.value).then(
            () => true,
            () => false,
          ))
        )
          left = true;
        progressed();
      }
      clearTimeout(watchdog);
      if (!left) res.end();
      else await chunks.return?.();
    } catch (error) {
      clearTimeout(watchdog);
      if (!left && !res.destroyed)
        log.error('streamed response failed; connection closed', {
          route: String(ctx.state.route),
          requestId: String(ctx.state.requestId),
          error: String(error),
        });
      res.destroy();
      await chunks.return?.();
    }
  })();
}

/** Ends a stream that will not be sent (its audit record failed, say), so what produces it stops. */
export async function closeStream(reply: Reply): Promise<void> {
  await reply.stream?.chunks[Symbol.asyncIterator]().return?.();
}
