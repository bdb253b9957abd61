import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type RunningPostgres, startEmbeddedPostgres, withDatabase } from '../../server/src/postgres/embeddedPostgres';
import { migrate } from '../../server/src/db/migrate';

export const TEMPLATE_DATABASE = 'gatehouse_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test PostgreSQL server (its `postgres` database). */
    pgServerUrl: string;
  }
}

let postgres: RunningPostgres | undefined;

/** Starts one PostgreSQL for the run (or uses TEST_DATABASE_URL's server) and migrates the template database. */
export async function setup(project: TestProject): Promise<void> {
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = path.join(os.tmpdir(), `gatehouse-test-${process.pid}-${Date.now()}`);
    // Throwaway data: durability settings off make the suite faster; behaviour is the same.
    postgres = await startEmbeddedPostgres({
      dataDir,
      ephemeral: true,
      flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    });
    serverUrl = postgres.url;
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const templateUrl = withDatabase(serverUrl, TEMPLATE_DATABASE);
  await migrate(templateUrl);
  project.provide('pgServerUrl', serverUrl);
}

export async function teardown(): Promise<void> {
  await postgres?.stop();
}
