import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { serverAndWorld } from '../support/serverAndWorld';

const run = promisify(execFile);
const harness = serverAndWorld();
const root = path.resolve(import.meta.dirname, '../..');
let dir: string | undefined;

afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

// A program as an integrator would write it against the generated types: the headers it reads must be
// declared on those responses (keyof), and a 409's `current` must be the check-in, without any cast.
const PROGRAM = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

type ConfigHeaders = paths['/sites/{siteId}/checkins/people/config']['get']['responses'][200]['headers'];
type CreateHeaders = paths['/sites/{siteId}/checkins/vehicles']['post']['responses'][201]['headers'];
const etagHeader: keyof ConfigHeaders = 'ETag';
const replayedHeader: keyof CreateHeaders = 'Idempotent-Replayed';

const [baseUrl = '', token = '', site = ''] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl: baseUrl + '/v1', headers: { Authorization: 'Bearer ' + token } });
const siteId = Number(site);

const config = await client.GET('/sites/{siteId}/checkins/people/config', { params: { path: { siteId } } });
const etag = config.response.headers.get(etagHeader);
const cached = await client.GET('/sites/{siteId}/checkins/people/config', {
  params: { path: { siteId }, header: { 'If-None-Match': etag ?? '' } },
});
const arrive = (key: string) =>
  client.POST('/sites/{siteId}/checkins/vehicles', {
    params: { path: { siteId }, header: { 'Idempotency-Key': key } },
    body: { licensePlate: 'OA 2026', driverName: 'Grace Hopper' },
  });
const created = await arrive('openapi-client-1');
const replay = await arrive('openapi-client-1');
const again = await arrive('openapi-client-2');
const current = again.error && 'current' in again.error ? again.error.current : undefined;
console.log(JSON.stringify({
  etag,
  cachedStatus: cached.response.status,
  createdPlate: created.data?.licensePlate,
  replayed: replay.response.headers.get(replayedHeader),
  conflictCode: again.error?.code,
  currentCheckinId: current?.checkinId,
  currentStatus: current?.status,
}));
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmitOnError: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: ['node'],
    skipLibCheck: true,
    outDir: 'out',
  },
  files: ['program.ts'],
};

describe('a client generated from the served document', () => {
  it('type-checks a program that reads ETag, Idempotent-Replayed and a 409 current, and runs it', async () => {
    const { server, world } = harness;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-openapi-client-'));
    const document = await (await fetch(`${server.baseUrl}/v1/openapi.json`)).text();
    await fs.writeFile(path.join(dir, 'openapi.json'), document);
    const types = astToString(await openapiTS(pathToFileURL(path.join(dir, 'openapi.json'))));
    await fs.writeFile(path.join(dir, 'schema.d.ts'), types);
    await fs.writeFile(path.join(dir, 'program.ts'), PROGRAM);
    await fs.writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    // The project's own packages (openapi-fetch, @types/node) for the program to resolve.
    await fs.symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');

    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const compiled = await run(process.execPath, [tsc, '-p', dir]).catch((error: { stdout: string }) => ({
      stdout: error.stdout,
      failed: true,
    }));
    expect(compiled.stdout).toBe('');

    const { stdout } = await run(process.execPath, [
      path.join(dir, 'out/program.js'),
      server.baseUrl,
      world.token,
      String(world.siteId),
    ]);
    const result = JSON.parse(stdout) as Record<string, unknown>;
    expect(result).toEqual({
      etag: expect.stringMatching(/^"/),
      cachedStatus: 304,
      createdPlate: 'OA 2026',
      replayed: 'true',
      conflictCode: 'VEHICLE_ALREADY_ON_SITE',
      currentCheckinId: expect.any(Number),
      currentStatus: 'PENDING',
    });
  }, 60_000);
});
