import { afterAll, beforeAll } from 'vitest';
import { type World, buildWorld } from './factories';
import { type TestServer, startTestServer } from './testServer';

/**
 * A test file's server and a world (account, sites, token) on it: started before the file's tests, closed
 * after them. Read `server` and `world` inside tests and hooks (they exist once `beforeAll` has run).
 */
export function serverAndWorld(...options: Parameters<typeof startTestServer>): { readonly server: TestServer; readonly world: World } {
  let server: TestServer | undefined;
  let world: World | undefined;
  beforeAll(async () => {
    server = await startTestServer(...options);
    world = await buildWorld(server);
  });
  afterAll(async () => server?.close());
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('serverAndWorld: read it inside a test or a hook, after beforeAll');
    return value;
  };
  return {
    get server() {
      return ready(server);
    },
    get world() {
      return ready(world);
    },
  };
}
