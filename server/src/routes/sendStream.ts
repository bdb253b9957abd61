import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from '../logger';
import type { Reply } from '../reply';

/** Chunks buffered ahead of the socket: the producer (an export thread) waits for the rest. */
const CHUNKS_AHEAD = 2;

/**
 * A streamed body (a CSV export), sent as it is made. A failure once the headers are out cannot become an
 * error response: it is logged and the connection is cut, so the client sees an incomplete download, not a hang.
 */
export function sendStream(ctx: Context, reply: Reply, stream: NonNullable<Reply['stream']>, log: Logger): void {
  for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
  ctx.status = reply.status;
  ctx.type = stream.contentType;
  const cutOnFailure = async function* () {
    try {
      yield* stream.chunks;
    } catch (error) {
      log.error('streamed response failed; connection closed', { route: String(ctx.state.route), requestId: String(ctx.state.requestId), error: String(error) });
      ctx.res.destroy();
    }
  };
  ctx.body = Readable.from(cutOnFailure(), { highWaterMark: CHUNKS_AHEAD });
}

/** Ends a stream that will not be sent (its audit record failed, say), so what produces it stops. */
export async function closeStream(reply: Reply): Promise<void> {
  await reply.stream?.chunks[Symbol.asyncIterator]().return?.();
}
