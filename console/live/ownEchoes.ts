/**
 * The events the console's own writes will bring back (docs/event-stream-clients.md: skip your own writes'
 * echo). The answer of the write is already in the cache; its event, when it comes, needs no request. An
 * echo not seen within ECHO_MS is forgotten, so that it can never hide someone else's later change for long.
 */
const ECHO_MS = 10_000;

const expected = new Map<string, number>();

/** After a write whose answer was put in the cache: its event (named by `key`) is to be skipped once. */
export function expectEcho(key: string): void {
  expected.set(key, Date.now() + ECHO_MS);
}

/** Whether the event named by `key` is the echo of one of the console's own writes (then it is used up). */
export function isOwnEcho(key: string): boolean {
  const until = expected.get(key);
  if (until === undefined) return false;
  expected.delete(key);
  return until >= Date.now();
}

/** What one user's writes expected is not the next one's. */
export function forgetEchoes(): void {
  expected.clear();
}
