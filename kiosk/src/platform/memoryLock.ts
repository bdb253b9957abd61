import type { LockProvider } from './platform';

/**
 * A lock for one JavaScript realm, where `navigator.locks` does not exist (Node, old WebViews). Each
 * instance is its own lock space: the engine's platform owns one, so there is no module-level state.
 */
export function createMemoryLock(): LockProvider {
  const tails = new Map<string, Promise<void>>();
  return {
    async withLock<T>(name: string, job: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      let release = () => {};
      const mine = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => mine);
      tails.set(name, tail);
      await previous;
      try {
        return await job();
      } finally {
        release();
        // Forget the name once nobody queued behind us, so the map does not grow with every pass.
        if (tails.get(name) === tail) tails.delete(name);
      }
    },
  };
}
