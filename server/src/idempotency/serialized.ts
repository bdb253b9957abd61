import { PROBLEM_JSON } from '../errors/respond';
import type { ProblemError } from '../errors/problem';
import type { Reply } from '../reply';

/** A response as bytes: what is sent, and what an idempotency record stores and replays byte for byte. */
export interface SerializedReply {
  status: number;
  text: string | null;
  headers: Record<string, string>;
  replayed?: boolean;
}

export function serializeReply(reply: Reply): SerializedReply {
  return {
    status: reply.status,
    text: reply.body === undefined ? null : JSON.stringify(reply.body),
    headers: reply.headers ?? {},
  };
}

export function serializeProblem(error: ProblemError, instance: string, requestId: string): SerializedReply {
  return { status: error.status, text: JSON.stringify(error.toBody(instance, requestId)), headers: {} };
}

/** The Content-Type a stored status implies. */
export function contentTypeFor(status: number): string {
  return status >= 400 ? PROBLEM_JSON : 'application/json; charset=utf-8';
}
