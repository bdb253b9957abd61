import type { Context } from 'koa';
import { type ProblemError } from './problem';

export const PROBLEM_JSON = 'application/problem+json';

/** Writes a problem as the response, with its extra headers. */
export function sendProblem(ctx: Context, error: ProblemError): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.extras.headers ?? {})) ctx.set(name, value);
  ctx.type = PROBLEM_JSON;
  ctx.body = JSON.stringify(error.toBody(ctx.path, String(ctx.state.requestId ?? '')));
}
