import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type World, buildWorld } from './factories';
import { type TestServer, startTestServer } from './testServer';

/** How the file's server starts, and what the file needs built on it. */
export interface WorldOptions {
  /** Environment variables over the test defaults (`startTestServer`'s overrides). */
  env?: Record<string, string>;
  /** A second account's world on the same server, for tests that one account cannot reach another's data. */
  stranger?: boolean;
  /** A new world before each test instead of one for the whole file (the stranger stays one per file). */
  worldPerTest?: boolean;
}

export interface ServerAndWorld {
  readonly server: TestServer;
  readonly world: World;
  /** Only with `{ stranger: true }`. */
  readonly stranger: World;
}

function ready<T>(value: T | undefined, hint = 'read it inside a test or a hook, after beforeAll'): T {
  if (value === undefined) throw new Error(`serverAndWorld: ${hint}`);
  return value;
}

/**
 * A test file's server alone, for files that build their own accounts or sites: started before the file's
 * (or the describe block's) tests, closed after them.
 */
export function serverForFile(env: Record<string, string> = {}): { readonly server: TestServer } {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(env);
  });
  afterAll(async () => server?.close());
  return {
    get server() {
      return ready(server);
    },
  };
}

/**
 * A test file's server and a world (account, sites, token) on it: started before the file's tests, closed
 * after them. Read `server` and `world` inside tests and hooks (they exist once `beforeAll` has run).
 */
export function serverAndWorld(options: WorldOptions = {}): ServerAndWorld {
  const { env = {}, stranger: wantsStranger = false, worldPerTest = false } = options;
  const file = serverForFile(env);
  let world: World | undefined;
  let stranger: World | undefined;
  beforeAll(async () => {
    if (!worldPerTest) world = await buildWorld(file.server);
    if (wantsStranger) stranger = await buildWorld(file.server);
  });
  if (worldPerTest) {
    beforeEach(async () => {
      world = await buildWorld(file.server);
    });
  }
  return {
    get server() {
      return file.server;
    },
    get world() {
      return ready(world);
    },
    get stranger() {
      return ready(stranger, wantsStranger ? undefined : 'ask for it with { stranger: true }');
    },
  };
}
