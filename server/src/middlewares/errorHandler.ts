import type { Middleware } from 'koa';
import { toProblem } from '../errors/classify';
import { problem } from '../errors/problem';
import { sendProblem } from '../errors/respond';
import type { Logger } from '../logger';

/** Turns every failure below it into problem+json; never a stack trace or SQL text. */
export function errorHandler(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        sendProblem(ctx, problem('NOT_FOUND', `No endpoint ${ctx.method} ${ctx.path}.`));
      }
    } catch (error) {
      const { problem: result, unexpected } = toProblem(error);
      if (unexpected) {
        log.error('request failed', {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          // Sequelize keeps the database's own message (never sent to the client) on `parent`.
          cause: error instanceof Error && 'parent' in error ? String(error.parent) : undefined,
        });
      }
      sendProblem(ctx, result);
    }
  };
}
